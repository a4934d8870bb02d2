{{/* Names and labels, in the usual Helm shape. */}}
{{- define "agui.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "agui.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "agui.selectorLabels" -}}
app.kubernetes.io/name: {{ include "agui.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "agui.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "agui.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "agui.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "agui.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository:tag, or repository@digest when a digest is pinned. */}}
{{- define "agui.imageRef" -}}
{{- if .image.digest }}
{{- printf "%s@%s" .image.repository .image.digest }}
{{- else }}
{{- printf "%s:%s" .image.repository (default .defaultTag .image.tag) }}
{{- end }}
{{- end }}

{{- define "agui.image" -}}
{{- include "agui.imageRef" (dict "image" .Values.image "defaultTag" .Chart.AppVersion) }}
{{- end }}

{{- define "agui.kernelImage" -}}
{{- include "agui.imageRef" (dict "image" .Values.kernel.image "defaultTag" (printf "%s-agentcore" .Chart.AppVersion)) }}
{{- end }}

{{/* The Secret the tokens come from: the user's, or the chart's own. */}}
{{- define "agui.secretName" -}}
{{- default (include "agui.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* Whether the gateway reads each secret variable (rendered as "true" or ""). */}}
{{- define "agui.hasAuthToken" -}}
{{- if .Values.secrets.existingSecret }}{{ if .Values.secrets.keys.authToken }}true{{ end }}
{{- else if .Values.secrets.authToken }}true{{ end }}
{{- end }}

{{- define "agui.hasA2aToken" -}}
{{- if .Values.secrets.existingSecret }}{{ if and .Values.secrets.keys.a2aToken (or .Values.kernel.enabled .Values.config.a2aUrl) }}true{{ end }}
{{- else if or .Values.secrets.a2aToken .Values.kernel.enabled }}true{{ end }}
{{- end }}

{{- define "agui.hasRedisUrl" -}}
{{- if eq .Values.config.stateStore "redis" }}
{{- if .Values.secrets.existingSecret }}{{ if .Values.secrets.keys.redisUrl }}true{{ end }}
{{- else if .Values.secrets.redisUrl }}true{{ end }}
{{- end }}
{{- end }}

{{/* The chart renders its own Secret only when it holds something and no existing one is named. */}}
{{- define "agui.rendersSecret" -}}
{{- if and (not .Values.secrets.existingSecret) (or .Values.secrets.authToken .Values.secrets.redisUrl (include "agui.hasA2aToken" .)) }}true{{ end }}
{{- end }}

{{/*
The kernel token the chart generates (base64), kept across upgrades: the one of the Secret already in the
cluster (lookup), else a new random one, made once per render (cached in .Values) so that the Secret and the
Deployment's checksum/secret see the same value. `helm template` has no cluster and makes a new one each time.
*/}}
{{- define "agui.generatedA2aToken" -}}
{{- if not (hasKey .Values.secrets "generatedA2aToken") }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "agui.fullname" .) }}
{{- $previous := "" }}
{{- if $existing }}{{ $previous = index ($existing.data | default dict) .Values.secrets.keys.a2aToken | default "" }}{{ end }}
{{- $_ := set .Values.secrets "generatedA2aToken" ($previous | default (randAlphaNum 48 | b64enc)) }}
{{- end }}
{{- .Values.secrets.generatedA2aToken }}
{{- end }}

{{/* More than one pod may run at once: the only case where a PDB or an HPA makes sense. */}}
{{- define "agui.isScaledOut" -}}
{{- if or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1) }}true{{ end }}
{{- end }}

{{/*
Grace period: the drain (DESIGN IAC_CODE_AGUI_DRAIN_SECONDS), then the bounded CancelTask of the runs still
open, then 15 s to flush state and stop the kernel. Kubernetes sends SIGKILL when it runs out.
*/}}
{{- define "agui.terminationGracePeriodSeconds" -}}
{{- $drain := int (ceil .Values.config.drainSeconds) }}
{{- if kindIs "invalid" .Values.terminationGracePeriodSeconds }}
{{- add $drain (int (ceil .Values.config.cancelTimeoutSeconds)) 15 }}
{{- else if le (int .Values.terminationGracePeriodSeconds) $drain }}
{{- fail (printf "terminationGracePeriodSeconds (%v) must exceed config.drainSeconds (%v): runs need time to drain" .Values.terminationGracePeriodSeconds .Values.config.drainSeconds) }}
{{- else }}
{{- int .Values.terminationGracePeriodSeconds }}
{{- end }}
{{- end }}

{{/* The kernel sidecar's A2A URL, on loopback (the pod's network namespace is shared). */}}
{{- define "agui.a2aUrl" -}}
{{- if .Values.kernel.enabled }}
{{- if .Values.config.a2aUrl }}
{{- fail "config.a2aUrl must be empty with kernel.enabled: the gateway uses the sidecar" }}
{{- end }}
{{- if eq (int .Values.kernel.port) (int .Values.config.port) }}
{{- fail "kernel.port must differ from config.port" }}
{{- end }}
{{- printf "http://127.0.0.1:%d/" (int .Values.kernel.port) }}
{{- else }}
{{- .Values.config.a2aUrl }}
{{- end }}
{{- end }}

{{/* The gateway's secret variables (secretKeyRef only) and extraEnv. */}}
{{- define "agui.gatewayEnv" -}}
{{- $secretName := include "agui.secretName" . -}}
{{- $keys := .Values.secrets.keys -}}
{{- if include "agui.hasAuthToken" . }}
- name: IAC_CODE_AGUI_AUTH_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.authToken }}
{{- end }}
{{- if include "agui.hasA2aToken" . }}
- name: IAC_CODE_AGUI_A2A_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.a2aToken }}
{{- end }}
{{- if include "agui.hasRedisUrl" . }}
- name: IAC_CODE_AGUI_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ $keys.redisUrl }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
