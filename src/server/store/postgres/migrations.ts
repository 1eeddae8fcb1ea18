/**
 * The service's own tables, created and changed by versioned migrations that the first process
 * to start applies (postgres/database.ts); pg-boss keeps its queue in its own schema and migrates
 * that itself. Documents are `json`, not `jsonb`, so that requests and plans come back exactly as
 * they were stored, their keys in the same order.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'actions, projects, sessions and records',
    sql: `
      CREATE TABLE routeplan_actions (
        action_uuid text PRIMARY KEY,
        owner text NOT NULL,
        project_id text,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        ended_at timestamptz,
        idempotency_key text,
        stored json NOT NULL,
        progress json
      );
      CREATE UNIQUE INDEX routeplan_actions_idempotency ON routeplan_actions (owner, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE INDEX routeplan_actions_project ON routeplan_actions (project_id, created_at DESC) WHERE project_id IS NOT NULL;
      CREATE INDEX routeplan_actions_ended ON routeplan_actions (ended_at) WHERE status <> 'pending';
      CREATE INDEX routeplan_actions_pending ON routeplan_actions (owner) WHERE status = 'pending';

      CREATE TABLE routeplan_projects (
        id text PRIMARY KEY,
        owner text NOT NULL,
        created_at timestamptz NOT NULL,
        idempotency_key text,
        geocoding_pending boolean NOT NULL,
        stored json NOT NULL
      );
      CREATE UNIQUE INDEX routeplan_projects_idempotency ON routeplan_projects (owner, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE INDEX routeplan_projects_owner ON routeplan_projects (owner);

      CREATE TABLE routeplan_sessions (
        id text PRIMARY KEY,
        owner text NOT NULL,
        expires_at timestamptz NOT NULL,
        stored json NOT NULL
      );
      CREATE INDEX routeplan_sessions_expiry ON routeplan_sessions (expires_at);

      CREATE TABLE routeplan_records (
        collection text NOT NULL,
        id text NOT NULL,
        body json NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (collection, id)
      );
    `,
  },
  {
    version: 2,
    name: 'proof of delivery files',
    sql: `
      CREATE TABLE routeplan_blobs (
        id text PRIMARY KEY,
        body bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 3,
    name: 'each owner’s actions newest first (GET /v2/schedules)',
    sql: `
      CREATE INDEX routeplan_actions_owner_listed ON routeplan_actions (owner, created_at DESC, action_uuid DESC);
    `,
  },
  {
    version: 4,
    name: 'webhook deliveries',
    sql: `
      CREATE TABLE routeplan_webhooks (
        id text PRIMARY KEY,
        event_id text NOT NULL,
        event_type text NOT NULL,
        url text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        lease_holder text,
        lease_until timestamptz
      );
      CREATE INDEX routeplan_webhooks_due ON routeplan_webhooks (next_attempt_at);
    `,
  },
  {
    version: 5,
    name: 'endings whose webhook event is not yet recorded',
    sql: `
      ALTER TABLE routeplan_actions ADD COLUMN ending_untold boolean NOT NULL DEFAULT false;
      CREATE INDEX routeplan_actions_ending_untold ON routeplan_actions (ended_at) WHERE ending_untold;
    `,
  },
];
