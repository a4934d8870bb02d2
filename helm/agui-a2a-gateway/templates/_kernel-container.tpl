{{/*
The iac-code A2A kernel (`iac-code a2a --host 127.0.0.1 --port <p> --thinking-exposure all`), on loopback only,
with its bearer token from the Secret the gateway's IAC_CODE_AGUI_A2A_TOKEN also reads.
*/}}

{{/* The kernel's config dir (its A2A task snapshots): on the state volume, so a parked task outlives the pod. */}}
{{- define "agui.kernelConfigDir" -}}
{{- $stateDir := .Values.config.stateDir | trimSuffix "/" -}}
{{- with .Values.config.configDir -}}
{{- if not (hasPrefix (printf "%s/" $stateDir) (printf "%s/" (trimSuffix "/" .))) -}}
{{- fail (printf "config.configDir (%s) must lie under config.stateDir (%s): the kernel keeps its tasks there, on the state volume" . $stateDir) -}}
{{- end -}}
{{- . -}}
{{- else -}}
{{- printf "%s/iac-code" $stateDir -}}
{{- end -}}
{{- end }}

{{/*
Its /health wants the bearer token, which an httpGet probe cannot send: an exec probe reads it from the
container's own environment (never from the pod spec) and asks with Node, which the image carries.
*/}}
{{- define "agui.kernelHealthCommand" -}}
- node
- -e
- {{ printf "fetch('http://127.0.0.1:%d/health',{headers:{authorization:'Bearer '+process.env.IACCODE_A2A_HTTP_TOKEN}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" (int .Values.kernel.port) | quote }}
{{- end }}

{{- define "agui.kernelContainer" -}}
- name: iac-code-kernel
  image: {{ include "agui.kernelImage" . | quote }}
  imagePullPolicy: {{ .Values.kernel.image.pullPolicy }}
  {{- if .Values.kernel.nativeSidecar }}
  restartPolicy: Always
  {{- end }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  {{- /* tini stays PID 1; -e 143: the kernel ends on SIGTERM with 143, a normal stop, not an Error. */}}
  command: ["/usr/bin/tini", "-e", "143", "--"]
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
    - name: IAC_CODE_CONFIG_DIR
      value: {{ include "agui.kernelConfigDir" . | quote }}
    - name: HOME
      value: /home/node
    {{- /* Its log files are not rotated: keep them off the state volume, in HOME's size-limited emptyDir. */}}
    - name: IAC_CODE_LOG_DIR
      value: /home/node/logs
    {{- with .Values.kernel.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  startupProbe:
    exec:
      command:
        {{- include "agui.kernelHealthCommand" . | nindent 8 }}
    {{- toYaml .Values.kernel.startupProbe | nindent 4 }}
  livenessProbe:
    exec:
      command:
        {{- include "agui.kernelHealthCommand" . | nindent 8 }}
    {{- toYaml .Values.kernel.livenessProbe | nindent 4 }}
  {{- if not .Values.kernel.nativeSidecar }}
  {{- /*
  An ordinary container gets SIGTERM together with the gateway: wait while the gateway still listens (its
  drain and the CancelTask of open runs need the kernel), bounded by the pod's grace period.
  */}}
  lifecycle:
    preStop:
      exec:
        command:
          - node
          - -e
          - {{ printf "const probe=()=>fetch('http://127.0.0.1:%d/health').then(()=>setTimeout(probe,500),()=>process.exit(0));probe()" (int .Values.config.port) | quote }}
  {{- end }}
  resources:
    {{- toYaml .Values.kernel.resources | nindent 4 }}
  volumeMounts:
    - name: state
      mountPath: {{ .Values.config.stateDir }}
    - name: workspace
      mountPath: {{ .Values.workspace.mountPath }}
    - name: tmp
      mountPath: /tmp
    - name: kernel-home
      mountPath: /home/node
{{- end }}
