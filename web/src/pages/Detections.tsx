import { type FormEvent, useState } from 'react';
import { type Outputs, trpc } from '../api';
import { Empty, ErrorBox, Loading } from '../components/ui';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useCan } from '../me';

type Detection = Outputs['detections']['list']['detections'][number];

/**
 * The tenant's own detections: Sigma rules run on every event its accounts forward. Admins upload, enable, disable
 * and delete them; an upload that asks for what cannot run is refused with the service's message naming each part.
 */
export function DetectionsPage() {
  const detections = useLoad(() => trpc.detections.list.query(), []);
  const canEdit = useCan('admin');
  const [adding, setAdding] = useState(false);
  return (
    <section>
      <h1>Detections</h1>
      <p className="muted">
        Your own Sigma rules for CloudTrail, run on every event your accounts forward beside Sentinel&apos;s detections.
        A match opens a signal named after the rule, with its title and a severity from its level.
      </p>
      {canEdit && !adding && (
        <button type="button" onClick={() => setAdding(true)}>
          Add a detection
        </button>
      )}
      {adding && (
        <UploadForm
          onDone={(saved) => {
            setAdding(false);
            if (saved) detections.reload();
          }}
        />
      )}
      <ErrorBox message={detections.error} onRetry={detections.reload} />
      {detections.loading && !detections.data && <Loading what="Loading detections" />}
      {detections.data && detections.data.count === 0 && <Empty>No detections yet.</Empty>}
      {detections.data && detections.data.count > 0 && (
        <table className="list" aria-label="Detections">
          <thead>
            <tr>
              <th>Name</th>
              <th>Rule</th>
              <th>Severity</th>
              <th>State</th>
              <th>Updated</th>
              {canEdit && <th />}
            </tr>
          </thead>
          <tbody>
            {detections.data.detections.map((d) => (
              <DetectionRow key={d.detection_id} detection={d} canEdit={canEdit} onChange={detections.reload} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function DetectionRow({
  detection: d,
  canEdit,
  onChange,
}: {
  detection: Detection;
  canEdit: boolean;
  onChange: () => void;
}) {
  const toggle = useAction(() =>
    trpc.detections.update.mutate({ detection_id: d.detection_id, patch: { enabled: !d.enabled } }),
  );
  const remove = useAction(() => trpc.detections.delete.mutate({ detection_id: d.detection_id }));
  return (
    <tr data-detection={d.detection_id}>
      <td>{d.name}</td>
      <td>
        {d.title}
        <div className="muted">{d.check_id}</div>
      </td>
      <td>{d.severity}</td>
      <td>
        <span className={d.enabled ? 'status status-active' : 'status status-disconnected'}>
          {d.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </td>
      <td>{when(d.updated_at)}</td>
      {canEdit && (
        <td className="actions">
          <button type="button" disabled={toggle.busy} onClick={() => void toggle.run().then((r) => r && onChange())}>
            {d.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="danger"
            disabled={remove.busy}
            onClick={() => {
              if (window.confirm(`Delete the detection ${d.name}? Its signals stay.`))
                void remove.run().then((r) => r && onChange());
            }}
          >
            Delete
          </button>
          <ErrorBox message={toggle.error ?? remove.error} />
        </td>
      )}
    </tr>
  );
}

/** Uploads a Sigma rule: its YAML pasted or read from a file. The service validates it; its refusal is shown as is. */
function UploadForm({ onDone }: { onDone: (saved: boolean) => void }) {
  const [sigma, setSigma] = useState('');
  const upload = useAction((name: string, rule: string) => trpc.detections.create.mutate({ name, sigma: rule }));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (await upload.run(String(form.get('name')), sigma)) onDone(true);
  };
  return (
    <form className="rule-form" onSubmit={submit} aria-label="Add a detection">
      <h2>Add a detection</h2>
      <label>
        Name <input name="name" required maxLength={200} />
      </label>
      <label>
        Sigma rule file{' '}
        <input
          type="file"
          accept=".yml,.yaml,text/yaml"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void file.text().then(setSigma);
          }}
        />
      </label>
      <label>
        Sigma rule (YAML, logsource product aws, service cloudtrail)
        <textarea
          name="sigma"
          required
          rows={14}
          spellCheck={false}
          value={sigma}
          onChange={(event) => setSigma(event.currentTarget.value)}
        />
      </label>
      <ErrorBox message={upload.error} />
      <div className="actions">
        <button type="submit" disabled={upload.busy}>
          {upload.busy ? 'Uploading…' : 'Upload'}
        </button>
        <button type="button" className="link" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
