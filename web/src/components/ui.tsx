import { type ReactNode, useState } from 'react';
import { BAND_LABEL, srsBand } from '../format';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status">
      {what}…
    </p>
  );
}

export function ErrorBox({ message, onRetry }: { message: string | null; onRetry?: () => void }) {
  if (!message) return null;
  return (
    <div className="error" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="link" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="status">
      {children}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function SrsBadge({ srs }: { srs: number | null | undefined }) {
  const band = srsBand(srs);
  return (
    <span className={`srs srs-${band}`} title={BAND_LABEL[band]} data-testid="srs">
      {srs ?? '—'}
    </span>
  );
}

/**
 * Beside a score that did not read every core source of the account (IAM, CloudTrail, EC2, S3, ...): it covers only the
 * checks, regions and resources it read. Optional sources (AWS Health, Cost Explorer, AWS Budgets) never set it.
 */
export function IncompleteMark({
  title = 'The latest scan could not read every core source of the account: this score covers only what it read',
}: {
  title?: string;
}) {
  return (
    <span className="incomplete" data-testid="score-incomplete" title={title}>
      incomplete
    </span>
  );
}

/** A Copy button for `text`, and what became of the copy. */
function CopyButton({ text, className }: { text: string; className?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <>
      <button type="button" className={className} onClick={copy}>
        {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      {copied === 'failed' && <span className="muted">Copy failed: select the text instead</span>}
    </>
  );
}

/** A block of text to paste somewhere, with a button that copies it. */
export function CopyBlock({ title, text }: { title: string; text: string }) {
  return (
    <section className="copy-block">
      <header>
        <h4>{title}</h4>
        <CopyButton text={text} />
      </header>
      <pre>{text}</pre>
    </section>
  );
}

/** One value to paste somewhere (a key, a URL), on its line, with a button that copies it. */
export function CopyField({ value, testId }: { value: string; testId?: string }) {
  return (
    <span className="copy-field">
      <code data-testid={testId}>{value}</code> <CopyButton text={value} className="small" />
    </span>
  );
}

/** Saves text as a file through a temporary object URL. */
export function saveText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}

/** A filter over one field: "All" (undefined) or one of `options`. */
export function FilterSelect<T extends string>({
  label,
  options,
  value,
  onChange,
  labelOf = (o) => o,
}: {
  label: string;
  options: readonly T[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  labelOf?: (option: T) => string;
}) {
  return (
    <label>
      {label}{' '}
      <select value={value ?? ''} onChange={(e) => onChange((e.target.value || undefined) as T | undefined)}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
