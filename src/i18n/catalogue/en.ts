/**
 * English source catalogue: the exact strings of the original adapter (reference §11), so a client that
 * matched on them keeps working. Other languages add a file with the same keys (issue #8).
 */
export const EN = {
  // HTTP layer
  unauthorized: 'A valid bearer token is required.',
  unsupportedMediaType: 'Content-Type must be application/json.',
  requestTooLarge: 'The AG-UI request body is too large.',
  invalidJson: 'The request body is not valid JSON.',
  notAnObject: 'RunAgentInput must be a JSON object.',
  invalidEnvelope: 'Invalid AG-UI RunAgentInput envelope.',
  invalidForwardedProps: 'Invalid iac-code forwarded properties.',
  cancelTooLarge: 'The cancel request body is too large.',
  cancelInvalidJson: 'The cancel request body is not valid JSON.',
  cancelNotAnObject: 'The cancel request must be a JSON object.',
  cancelIdentityRequired: 'threadId and rosInvocationId are required.',
  executionNotFound: 'The execution was not found.',
  routeNotFound: 'The requested route does not exist.',
  internalError: 'The AG-UI gateway hit an unexpected error.',
  serviceDraining: 'The AG-UI gateway is shutting down and accepts no new runs.',
  // Admission
  stateUnavailable: 'The AG-UI adapter state is unavailable.',
  runIdUsed: 'The AG-UI run id has already been used.',
  threadBusy: 'The AG-UI thread already has an active run.',
  threadBindingConflict: 'The AG-UI thread is already bound to another workspace or caller.',
  resumeRequired: 'The AG-UI thread is waiting for interrupt responses.',
  executionGone: 'The execution to resume is no longer available.',
  resumeMismatch: 'The resume request does not match the interrupted run.',
  // Input checks
  toolsUnsupported: 'Client-provided tools are not supported.',
  userMessageRequired: 'A new run requires a user message.',
  userContentInvalid: 'The user message content is invalid.',
  onlyTextAndImages: 'Only text and inline data images are supported.',
  remoteMediaUnsupported: 'Remote media URLs are not supported.',
  imageMediaTypeUnsupported: 'The image media type is not supported.',
  imageBase64Invalid: 'The image data is not valid base64.',
  imageTooLarge: 'An image exceeds the maximum size.',
  imagesTooLarge: 'The total image content exceeds the maximum size.',
  imageInvalid: 'The image data is invalid.',
  cwdNotAbsolute: 'The iac-code workspace must be an absolute path.',
  cwdInvalid: 'The iac-code workspace is invalid.',
  cwdOutsideRoots: 'The iac-code workspace is outside the allowed roots.',
  cwdNotDirectory: 'The iac-code workspace is not a directory.',
  cwdCannotCreate: 'The iac-code workspace cannot be created.',
  // Upstream and run outcomes
  a2aUnavailable: 'The local A2A execution service is unavailable.',
  a2aExecutionFailed: 'The A2A execution failed.',
  executionCancelled: 'The execution was cancelled.',
  taskIdentityChanged: 'The A2A task identity changed unexpectedly.',
  contextIdentityChanged: 'The A2A context identity changed unexpectedly.',
  sessionIdentityChanged: 'The iac-code session identity changed unexpectedly.',
  executionMappingNotCommitted: 'The execution mapping could not be committed.',
  sessionMappingNotCommitted: 'The execution session mapping could not be committed.',
  // Interrupt fallbacks (reference §1.6)
  permissionRequired: 'Permission required',
  inputRequired: 'Input required',
} as const;
