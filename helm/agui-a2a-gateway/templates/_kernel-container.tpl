{{/*
The iac-code A2A kernel (reference §3.3: `iac-code a2a --host 127.0.0.1 --port <p> --thinking-exposure all`),
on loopback only, with its bearer token from the Secret the gateway's IAC_CODE_AGUI_A2A_TOKEN also reads.
No probes: its /health wants the token, which a kubelet probe cannot send; the gateway's readiness checks it.
*/}}
{{- define "agui.kernelContainer" -}}
- name: iac-code-kernel
  image: {{ include "agui.kernelImage" . | quote }}
  imagePullPolicy: {{ .Values.kernel.image.pullPolicy }}
  {{- if .Values.kernel.nativeSidecar }}
  restartPolicy: Always
  {{- end }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  {{- /* args, not command: the image's tini ENTRYPOINT stays PID 1. */}}
  args:
    - iac-code
    - a2a
    - --host
    - 127.0.0.1
    - --port
    - {{ .Values.kernel.port | quote }}
    - --thinking-exposure
    - {{ .Values.kernel.thinkingExposure | quote }}
    {{- range .Values.kernel.extraArgs }}
    - {{ . | quote }}
    {{- end }}
  {{- with .Values.kernel.extraEnvFrom }}
  envFrom:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  env:
    - name: IACCODE_A2A_HTTP_TOKEN
      valueFrom:
        secretKeyRef:
          name: {{ include "agui.secretName" . }}
          key: {{ .Values.secrets.keys.a2aToken }}
    - name: IACCODE_A2A_ALLOWED_CWDS
      value: {{ join ":" .Values.config.allowedCwds | quote }}
    - name: HOME
      value: /home/node
    {{- with .Values.kernel.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  resources:
    {{- toYaml .Values.kernel.resources | nindent 4 }}
  volumeMounts:
    - name: workspace
      mountPath: {{ .Values.workspace.mountPath }}
    - name: tmp
      mountPath: /tmp
    - name: kernel-home
      mountPath: /home/node
{{- end }}
