import { EVENT_COLS } from '../cache/data.ts';

/**
 * index-notifications.ts's prefsOf and mute-list read for many pubkeys at once (readGroupRecipients):
 * LATERAL probes with LIMIT 1, which the planner keeps as index lookups per pubkey (query-plans.test.ts).
 * Its own module, so the plan test can import it without the indexers' import cycle.
 */
export const GROUP_RECIPIENTS = `SELECT a.pubkey AS recipient, s.event AS settings, ${EVENT_COLS}
  FROM json_to_recordset(?::json) AS a(pubkey TEXT)
  LEFT JOIN LATERAL (SELECT event FROM app_settings WHERE pubkey = a.pubkey LIMIT 1) s ON TRUE
  LEFT JOIN LATERAL (SELECT event_id FROM replaceable WHERE kind = 10000 AND d = '' AND pubkey = a.pubkey LIMIT 1) r ON TRUE
  LEFT JOIN LATERAL (SELECT ${EVENT_COLS} FROM events e WHERE e.id = r.event_id LIMIT 1) e ON TRUE`;
