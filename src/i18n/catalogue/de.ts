import type { MessageKey } from '../message-key';

/** German. Codes, field names, "A2A", "AG-UI" and "iac-code" stay untranslated . */
export const DE: Record<MessageKey, string> = {
  // HTTP layer
  unauthorized: 'Ein gültiges Bearer-Token ist erforderlich.',
  unsupportedMediaType: 'Content-Type muss application/json sein.',
  requestTooLarge: 'Der Text der AG-UI-Anfrage ist zu groß.',
  requestTimeout: 'Der Anfragetext ist nicht rechtzeitig eingegangen.',
  requestNotReceived: 'Die Anfrage ist nicht rechtzeitig eingegangen.',
  invalidJson: 'Der Anfragetext ist kein gültiges JSON.',
  notAnObject: 'RunAgentInput muss ein JSON-Objekt sein.',
  invalidEnvelope: 'Ungültiger AG-UI-RunAgentInput-Umschlag.',
  invalidForwardedProps: 'Ungültige weitergeleitete iac-code-Eigenschaften.',
  userIdNotPrincipal: 'forwardedProps.iacCode.userId muss der authentifizierte Aufrufer sein.',
  cancelTooLarge: 'Der Text der Abbruchanfrage ist zu groß.',
  cancelInvalidJson: 'Der Text der Abbruchanfrage ist kein gültiges JSON.',
  cancelNotAnObject: 'Die Abbruchanfrage muss ein JSON-Objekt sein.',
  cancelIdentityRequired: 'threadId und rosInvocationId sind erforderlich.',
  cancelIdentityTooLong: 'threadId und die Ausführungs-ID dürfen höchstens 1.024 Zeichen lang sein.',
  executionNotFound: 'Die Ausführung wurde nicht gefunden.',
  reattachIdentityRequired: 'rosInvocationId ist erforderlich, um einem Lauf zu folgen.',
  eventCursorInvalid: 'Last-Event-ID oder after ist keine Ereignis-ID dieses Dienstes.',
  reattachIdentityTooLong:
    'Die Ausführungs- oder Thread-ID und rosInvocationId dürfen höchstens 1.024 Zeichen lang sein.',
  eventsMovedOn:
    'Der Lauf ist weitergegangen: sein Ereignisprotokoll behält nur die neuesten Ereignisse und enthält die nach dieser ID nicht mehr.',
  runOwnerLost:
    'Die Gateway-Replik, die diesen Zug ausführte, ist weg; der Rest des Zugs ist verloren. Senden Sie ihn erneut.',
  eventsExpired: 'Das Ereignisprotokoll des Laufs enthält die Ereignisse nach dieser ID nicht mehr.',
  routeNotFound: 'Die angeforderte Route existiert nicht.',
  methodNotAllowed: 'Die angeforderte Route akzeptiert diese HTTP-Methode nicht.',
  headersTooLarge: 'Die Header der Anfrage sind zu groß.',
  malformedRequest: 'Die HTTP-Anfrage ist fehlerhaft.',
  invalidPathParameter: 'Ein Pfadparameter ist kein gültig prozentkodierter Text.',
  internalError: 'Im AG-UI-Gateway ist ein unerwarteter Fehler aufgetreten.',
  wsPeerUnresponsive: 'Der WebSocket-Client hat auf Heartbeats nicht mehr geantwortet.',
  serviceDraining: 'Das AG-UI-Gateway wird heruntergefahren und nimmt keine neuen Ausführungen an.',
  serverBusy:
    'Das AG-UI-Gateway liest gerade zu viele Anfragekörper gleichzeitig. Versuchen Sie es gleich erneut.',
  // Admission
  stateUnavailable: 'Der Zustand des AG-UI-Adapters ist nicht verfügbar.',
  runIdUsed: 'Die AG-UI-Ausführungs-ID wurde bereits verwendet.',
  threadBusy: 'Der AG-UI-Thread hat bereits eine aktive Ausführung.',
  threadTakenOver:
    'Ein anderes Replikat hat diesen Thread übernommen: Diese Ausführung wurde beendet, ohne auf die Aufgabe einzuwirken. Wiederholen Sie die Anfrage, um dem Thread zu folgen.',
  threadStateLost:
    'Der Zustandsspeicher hat den Zustand dieses Threads verloren (ein Redis-Neustart ohne Persistenz oder eine Verdrängung): Diese Ausführung wurde beendet, ohne auf die Aufgabe einzuwirken. Zuvor gemeldete Unterbrechungen sind verloren; beginnen Sie einen neuen Turn.',
  socketBusy:
    'Die Eingabe mit runId {runId} wurde abgelehnt: Auf diesem WebSocket lief ein Run und seine Warteschlange war voll. Senden Sie sie erneut.',
  threadBindingConflict:
    'Der AG-UI-Thread ist bereits an einen anderen Arbeitsbereich oder einen anderen Aufrufer gebunden.',
  resumeRequired: 'Der AG-UI-Thread wartet auf Antworten zu Unterbrechungen.',
  executionGone: 'Die fortzusetzende Ausführung ist nicht mehr verfügbar.',
  resumeMismatch: 'Die Fortsetzungsanfrage passt nicht zur unterbrochenen Ausführung.',
  // Input checks
  toolsUnsupported: 'Vom Client bereitgestellte Tools werden nicht unterstützt.',
  userMessageRequired: 'Eine neue Ausführung erfordert eine Benutzernachricht.',
  userContentInvalid: 'Der Inhalt der Benutzernachricht ist ungültig.',
  userContentEmpty: 'Der Inhalt der Benutzernachricht (messages[].content) darf nicht leer sein.',
  userMessageIdEmpty: 'Die ID der Benutzernachricht (messages[].id) darf nicht leer sein.',
  onlyTextAndImages: 'Nur Text und Bilder mit eingebetteten Daten werden unterstützt.',
  remoteMediaUnsupported: 'URLs zu entfernten Medien werden nicht unterstützt.',
  imageMediaTypeUnsupported: 'Der Medientyp des Bildes wird nicht unterstützt.',
  imageBase64Invalid: 'Die Bilddaten sind kein gültiges base64.',
  imageTooLarge: 'Ein Bild überschreitet die maximale Größe.',
  imagesTooLarge: 'Der gesamte Bildinhalt überschreitet die maximale Größe.',
  imageInvalid: 'Die Bilddaten sind ungültig.',
  cwdNotAbsolute: 'Der iac-code-Arbeitsbereich muss ein absoluter Pfad sein.',
  cwdInvalid: 'Der iac-code-Arbeitsbereich ist ungültig.',
  cwdTooLong: 'Der Pfad des iac-code-Arbeitsbereichs ist zu lang.',
  cwdOutsideRoots: 'Der iac-code-Arbeitsbereich liegt außerhalb der zulässigen Stammverzeichnisse.',
  cwdNotDirectory: 'Der iac-code-Arbeitsbereich ist kein Verzeichnis.',
  cwdCannotCreate: 'Der iac-code-Arbeitsbereich kann nicht erstellt werden.',
  // Upstream and run outcomes
  a2aUnavailable: 'Der lokale A2A-Ausführungsdienst ist nicht verfügbar.',
  a2aExecutionFailed: 'Die A2A-Ausführung ist fehlgeschlagen.',
  executionCancelled: 'Die Ausführung wurde abgebrochen.',
  taskIdentityChanged: 'Die Identität der A2A-Aufgabe hat sich unerwartet geändert.',
  contextIdentityChanged: 'Die Identität des A2A-Kontexts hat sich unerwartet geändert.',
  sessionIdentityChanged: 'Die Identität der iac-code-Sitzung hat sich unerwartet geändert.',
  executionMappingNotCommitted: 'Die Zuordnung der Ausführung konnte nicht gespeichert werden.',
  sessionMappingNotCommitted: 'Die Sitzungszuordnung der Ausführung konnte nicht gespeichert werden.',
  acceptedResponseNotCommitted:
    'Die angenommene Antwort auf die Unterbrechung konnte nicht gespeichert werden.',
  interruptedStateNotCommitted: 'Der Zustand der unterbrochenen Ausführung konnte nicht gespeichert werden.',
  // Interrupts and resume
  resolvedNeedsPayload: 'Eine aufgelöste Unterbrechung erfordert Nutzdaten.',
  interruptOtherContext: 'Eine Unterbrechung gehört zu einem anderen A2A-Kontext.',
  interruptOtherTask: 'Eine Unterbrechung gehört zu einer anderen A2A-Aufgabe.',
  sessionBackupNotReady:
    'Die Sitzungssicherung wird noch synchronisiert. Versuchen Sie es in 3 Sekunden erneut.',
  interruptResponseNotAccepted: 'Die A2A-Antwort auf die Unterbrechung wurde nicht angenommen.',
  permissionResponseNotAccepted: 'Die A2A-Berechtigungsantwort wurde nicht angenommen.',
  taskIdentityMismatch: 'Die Identität der A2A-Aufgabe passt nicht zur unterbrochenen Ausführung.',
  taskToResumeUnavailable: 'Die fortzusetzende A2A-Aufgabe ist nicht verfügbar.',
  cancelledByInterruptResponse: 'Die Ausführung wurde durch die Antwort auf die Unterbrechung abgebrochen.',
  sessionToResumeUnavailable: 'Die fortzusetzende iac-code-Sitzung ist nicht verfügbar.',
  responseWithoutAnswer: 'Die Rückmeldung zur Unterbrechung enthält keine Antwort.',
  responseAlreadyApplied: 'Die Antwort auf die Unterbrechung wurde bereits angewendet.',
  responsePayloadInvalid: 'Die Nutzdaten der Antwort auf die Unterbrechung sind ungültig.',
  executionExpired: 'Die unterbrochene Ausführung ist abgelaufen.',
  interruptResponseRejected:
    'Der lokale A2A-Ausführungsdienst hat die Antwort auf die Unterbrechung abgelehnt.',
  duplicateInterruptIds: 'Die Fortsetzung enthält doppelte Unterbrechungs-IDs.',
  incompleteResume: 'Die Fortsetzung muss jede ausstehende Unterbrechung genau einmal auflösen.',
  unknownInterrupt: 'Die Fortsetzung verweist auf eine unbekannte Unterbrechung.',
  // Interrupt fallbacks
  permissionRequired: 'Berechtigung erforderlich',
  inputRequired: 'Eingabe erforderlich',
};
