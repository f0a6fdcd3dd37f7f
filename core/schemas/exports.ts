import { z } from 'zod';
import { timestamp } from './common';

/** The CSV export takes no parameters: every signal of the account, in one layout. */
export const csvExportQuery = z.strictObject({});

/** The panic export takes no body (an empty JSON object is accepted too). */
export const panicExportInput = z.strictObject({}).optional();

export const panicExportOutput = z.object({
  message: z.string(),
  /** A signed link to the package (zip), valid 15 minutes. */
  download_url: z.string().meta({ format: 'uri' }),
  /** Extensions: the export's id (also its workflow id in Temporal) and when the link stops working. */
  export_id: z.string(),
  expires_at: timestamp,
});
