import type { EventForwarding } from '../events';
import { CopyField } from './ui';

/** Where the account's EventBridge forwarder delivers, the header it authorizes with, and the key (shown once). */
export function EventForwardingDetails({ forwarding }: { forwarding: EventForwarding }) {
  return (
    <dl className="event-forwarding">
      <dt>Endpoint</dt>
      <dd>
        <code data-testid="event-endpoint">{forwarding.endpoint}</code>
      </dd>
      <dt>Header</dt>
      <dd>
        <code data-testid="event-key-header">{forwarding.api_key_header}</code>
      </dd>
      <dt>Key</dt>
      <dd>
        <CopyField value={forwarding.api_key} testId="event-key" />
      </dd>
    </dl>
  );
}
