{{/* Names and labels shared by every resource of the release. */}}
{{- define "sentinel.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "sentinel.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component (api, worker, migrate). */}}
{{- define "sentinel.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "sentinel.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "sentinel.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{ .Values.secrets.existingSecret }}
{{- else -}}
{{ include "sentinel.fullname" . }}
{{- end -}}
{{- end -}}

{{- define "sentinel.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (include "sentinel.fullname" .) }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end -}}
{{- end -}}

{{/*
The environment of every process: the ConfigMap's variables and every key of the Secret. The ConfigMap and
Secret checksums are pod annotations (sentinel.podAnnotations), so a change rolls the pods.
*/}}
{{- define "sentinel.envFrom" -}}
- configMapRef:
    name: {{ include "sentinel.fullname" . }}
- secretRef:
    name: {{ include "sentinel.secretName" . }}
{{- end -}}

{{- define "sentinel.temporalTlsEnv" -}}
{{- if .Values.temporal.tlsSecret }}
- name: TEMPORAL_TLS_CERT_PATH
  value: /etc/sentinel/temporal-tls/tls.crt
- name: TEMPORAL_TLS_KEY_PATH
  value: /etc/sentinel/temporal-tls/tls.key
- name: TEMPORAL_TLS_CA_PATH
  value: /etc/sentinel/temporal-tls/ca.crt
{{- end }}
{{- end -}}

{{/* Writable directories under a read-only root: tsx's compile cache and EXPORT_LOCAL_DIR. */}}
{{- define "sentinel.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /app/.data
{{- if .Values.temporal.tlsSecret }}
- name: temporal-tls
  mountPath: /etc/sentinel/temporal-tls
  readOnly: true
{{- end }}
{{- end -}}

{{- define "sentinel.volumes" -}}
- name: tmp
  emptyDir: {}
- name: data
  emptyDir: {}
{{- if .Values.temporal.tlsSecret }}
- name: temporal-tls
  secret:
    secretName: {{ .Values.temporal.tlsSecret }}
    optional: false
{{- end }}
{{- end -}}

{{/* Scrape annotations and the checksums that roll pods when their configuration changes. */}}
{{- define "sentinel.podAnnotations" -}}
checksum/config: {{ include (print .root.Template.BasePath "/configmap.yaml") .root | sha256sum }}
{{- if not .root.Values.secrets.existingSecret }}
checksum/secret: {{ include (print .root.Template.BasePath "/secret.yaml") .root | sha256sum }}
{{- end }}
{{- if .root.Values.metrics.scrapeAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- end -}}
