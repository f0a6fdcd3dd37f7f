import { type FormEvent, useState } from 'react';
import { SCENARIOS } from '../../../domain/checks/types';
import { type Inputs, type Outputs, trpc } from '../api';
import { ChannelFields, type ChannelDraft, describeChannel, draftOf, toChannel } from '../components/ChannelFields';
import { Empty, ErrorBox, Loading, Notice } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { useCan } from '../me';

type Rule = Outputs['alertRules']['list']['rules'][number];
type RuleInput = Inputs['alertRules']['create'];

export function AlertRulesPage() {
  const rules = useLoad(() => trpc.alertRules.list.query(), []);
  const canEdit = useCan('member');
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <h1>Alert rules</h1>
      <p className="muted">
        A rule fires when an account&apos;s SRS drops below its threshold, or when a new finding of a listed scenario
        appears.
      </p>
      {canEdit && !creating && (
        <button type="button" onClick={() => setCreating(true)}>
          New rule
        </button>
      )}
      {creating && (
        <RuleForm
          title="New rule"
          save={(input) => trpc.alertRules.create.mutate(input)}
          onDone={(saved) => {
            setCreating(false);
            if (saved) rules.reload();
          }}
        />
      )}
      <ErrorBox message={rules.error} onRetry={rules.reload} />
      {rules.loading && !rules.data && <Loading what="Loading rules" />}
      {rules.data && rules.data.count === 0 && <Empty>No alert rules yet.</Empty>}
      {rules.data?.rules.map((r) => (
        <RuleCard key={r.rule_id} rule={r} canEdit={canEdit} onChange={rules.reload} />
      ))}
      <SlackSection />
    </section>
  );
}

function RuleCard({ rule, canEdit, onChange }: { rule: Rule; canEdit: boolean; onChange: () => void }) {
  const [editing, setEditing] = useState(false);
  const toggle = useAction(() =>
    trpc.alertRules.update.mutate({ rule_id: rule.rule_id, patch: { enabled: !rule.enabled } }),
  );
  const remove = useAction(() => trpc.alertRules.delete.mutate({ rule_id: rule.rule_id }));
  if (editing) {
    return (
      <RuleForm
        title={`Edit ${rule.name}`}
        initial={rule}
        save={(input) => trpc.alertRules.update.mutate({ rule_id: rule.rule_id, patch: input })}
        onDone={(saved) => {
          setEditing(false);
          if (saved) onChange();
        }}
      />
    );
  }
  return (
    <article className="rule" data-rule={rule.rule_id}>
      <header>
        <h3>{rule.name}</h3>
        <span className={rule.enabled ? 'status status-active' : 'status status-disconnected'}>
          {rule.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </header>
      <p>
        Fires below SRS {rule.min_srs}; scenarios: {rule.scenarios.length ? rule.scenarios.join(', ') : 'all'}.
      </p>
      <ul>
        {rule.channels.map((c, i) => (
          <li key={i}>{describeChannel(c)}</li>
        ))}
      </ul>
      {canEdit && (
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" disabled={toggle.busy} onClick={() => void toggle.run().then((r) => r && onChange())}>
            {rule.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="danger"
            disabled={remove.busy}
            onClick={() => {
              if (window.confirm(`Delete the rule ${rule.name}? Its alerts stay listed.`))
                void remove.run().then((r) => r && onChange());
            }}
          >
            Delete
          </button>
        </div>
      )}
      <ErrorBox message={toggle.error ?? remove.error} />
    </article>
  );
}

function RuleForm({
  title,
  initial,
  save,
  onDone,
}: {
  title: string;
  initial?: Rule;
  save: (input: RuleInput) => Promise<unknown>;
  onDone: (saved: boolean) => void;
}) {
  const [channels, setChannels] = useState<ChannelDraft[]>(
    initial ? initial.channels.map(draftOf) : [draftOf({ type: 'email', to: [] })],
  );
  const action = useAction(save);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: RuleInput = {
      name: String(form.get('name')),
      min_srs: Number(form.get('min_srs')),
      scenarios: SCENARIOS.filter((s) => form.get(`scenario-${s}`) === 'on'),
      channels: channels.map(toChannel),
      enabled: form.get('enabled') === 'on',
    };
    if (await action.run(input)) onDone(true);
  };
  return (
    <form className="rule-form" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      <label>
        Name <input name="name" required maxLength={200} defaultValue={initial?.name} />
      </label>
      <label>
        Fire when the SRS drops below{' '}
        <input name="min_srs" type="number" min={0} max={100} required defaultValue={initial?.min_srs ?? 40} />
      </label>
      <fieldset>
        <legend>Scenarios (none ticked: every scenario)</legend>
        {SCENARIOS.map((s) => (
          <label key={s} className="check">
            <input type="checkbox" name={`scenario-${s}`} defaultChecked={initial?.scenarios.includes(s)} /> {s}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Channels</legend>
        {channels.map((c, i) => (
          <ChannelFields
            key={i}
            value={c}
            onChange={(next) => setChannels(channels.map((old, j) => (j === i ? next : old)))}
            onRemove={channels.length > 1 ? () => setChannels(channels.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        <button type="button" onClick={() => setChannels([...channels, draftOf({ type: 'email', to: [] })])}>
          Add a channel
        </button>
      </fieldset>
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked={initial?.enabled ?? true} /> Enabled
      </label>
      <ErrorBox message={action.error} />
      <div className="actions">
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Save rule'}
        </button>
        <button type="button" className="link" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function SlackSection() {
  const workspaces = useLoad(() => trpc.integrations.slackWorkspaces.query(), []);
  const isAdmin = useCan('admin');
  const install = useAction(() => trpc.integrations.slackInstallStart.mutate());
  const [removed, setRemoved] = useState<string | null>(null);
  const remove = useAction((teamId: string) => trpc.integrations.slackRemove.mutate({ team_id: teamId }));
  return (
    <section aria-label="Slack">
      <h2>Slack</h2>
      <p className="muted">
        Install the Sentinel app in a Slack workspace to send alerts to its channels (use its team id in a Slack channel
        above).
      </p>
      <ErrorBox message={workspaces.error} onRetry={workspaces.reload} />
      {workspaces.loading && !workspaces.data && <Loading />}
      {workspaces.data &&
        (workspaces.data.installations.length === 0 ? (
          <Empty>No Slack workspace installed.</Empty>
        ) : (
          <ul>
            {workspaces.data.installations.map((w) => (
              <li key={w.team_id}>
                {w.team_name ?? w.team_id} ({w.team_id})
                {isAdmin && (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      void remove.run(w.team_id).then((r) => {
                        if (r) {
                          setRemoved(w.team_name ?? w.team_id);
                          workspaces.reload();
                        }
                      })
                    }
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {isAdmin && (
        <button
          type="button"
          disabled={install.busy}
          onClick={() =>
            void install.run().then((r) => {
              if (r) window.location.assign(r.oauth_url);
            })
          }
        >
          Add to Slack
        </button>
      )}
      <ErrorBox message={install.error ?? remove.error} />
      {removed && <Notice>{removed} removed.</Notice>}
    </section>
  );
}
