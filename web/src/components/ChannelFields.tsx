import type { Inputs, Outputs } from '../api';

type ChannelOut = Outputs['alertRules']['list']['rules'][number]['channels'][number];
type ChannelIn = Inputs['alertRules']['create']['channels'][number];

/** A channel being edited: every field as text, so switching the type keeps what was typed. */
export interface ChannelDraft {
  type: 'email' | 'slack-app' | 'slack-webhook' | 'pagerduty';
  to: string;
  team_id: string;
  channel: string;
  webhook_url: string;
  routing_key: string;
}

const BLANK: ChannelDraft = { type: 'email', to: '', team_id: '', channel: '', webhook_url: '', routing_key: '' };

export function draftOf(c: ChannelOut): ChannelDraft {
  if (c.type === 'email') return { ...BLANK, to: c.to.join(', ') };
  if (c.type === 'pagerduty') return { ...BLANK, type: 'pagerduty', routing_key: c.routing_key };
  if ('webhook_url' in c) return { ...BLANK, type: 'slack-webhook', webhook_url: c.webhook_url };
  return { ...BLANK, type: 'slack-app', team_id: c.team_id, channel: c.channel };
}

/** The channel as the service takes it; the service validates every field and names the one that is wrong. */
export function toChannel(d: ChannelDraft): ChannelIn {
  switch (d.type) {
    case 'email':
      return {
        type: 'email',
        to: d.to
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case 'slack-app':
      return { type: 'slack', team_id: d.team_id.trim(), channel: d.channel.trim() };
    case 'slack-webhook':
      return { type: 'slack', webhook_url: d.webhook_url.trim() };
    case 'pagerduty':
      return { type: 'pagerduty', routing_key: d.routing_key.trim() };
  }
}

export function describeChannel(c: ChannelOut): string {
  if (c.type === 'email') return `E-mail to ${c.to.join(', ')}`;
  if (c.type === 'pagerduty') return `PagerDuty (key …${c.routing_key.slice(-4)})`;
  if ('webhook_url' in c) return 'Slack incoming webhook';
  return `Slack ${c.channel} in ${c.team_id}`;
}

export function ChannelFields({
  value,
  onChange,
  onRemove,
}: {
  value: ChannelDraft;
  onChange: (next: ChannelDraft) => void;
  onRemove?: () => void;
}) {
  const set = (field: keyof ChannelDraft) => (e: { target: { value: string } }) =>
    onChange({ ...value, [field]: e.target.value });
  return (
    <div className="channel">
      <label>
        Type{' '}
        <select value={value.type} onChange={set('type')} aria-label="Channel type">
          <option value="email">E-mail</option>
          <option value="slack-app">Slack (installed app)</option>
          <option value="slack-webhook">Slack (incoming webhook)</option>
          <option value="pagerduty">PagerDuty</option>
        </select>
      </label>
      {value.type === 'email' && (
        <label>
          Recipients (comma-separated){' '}
          <input value={value.to} onChange={set('to')} placeholder="ops@example.com" required />
        </label>
      )}
      {value.type === 'slack-app' && (
        <>
          <label>
            Workspace (team id){' '}
            <input value={value.team_id} onChange={set('team_id')} placeholder="T0123ABC" required />
          </label>
          <label>
            Channel <input value={value.channel} onChange={set('channel')} placeholder="#alerts" required />
          </label>
        </>
      )}
      {value.type === 'slack-webhook' && (
        <label>
          Webhook URL{' '}
          <input
            value={value.webhook_url}
            onChange={set('webhook_url')}
            type="url"
            placeholder="https://hooks.slack.com/services/…"
            required
          />
        </label>
      )}
      {value.type === 'pagerduty' && (
        <label>
          Integration key{' '}
          <input value={value.routing_key} onChange={set('routing_key')} placeholder="32 characters" required />
        </label>
      )}
      {onRemove && (
        <button type="button" className="link" onClick={onRemove}>
          Remove channel
        </button>
      )}
    </div>
  );
}
