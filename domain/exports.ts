// A panic export's life: built by its workflow, then ready to download, or failed.

export const EXPORT_STATUSES = ['running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
