// A panic export's life: built by its workflow, then ready to download, or failed.

export const EXPORT_STATUSES = ['running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** An acceptance of a signal's risk as an export reads it (the signal's JSON, the acceptances' CSV): who, why, until when. */
export interface AcceptanceSource {
  id: string;
  signal_id: string;
  accepted_by_email: string;
  reason: string;
  accepted_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoked_by_email: string | null;
}
