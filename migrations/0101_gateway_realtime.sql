-- Realtime state shared by every summit serve process: who is present on which
-- channel, and which gateway processes are alive. Unlogged (like live_presence):
-- presence is worth seconds, and a crash that empties it is refilled as clients
-- rejoin. Only the service role touches these; clients go through the gateway.
create schema if not exists realtime;
grant usage on schema realtime to service_role;

create unlogged table if not exists realtime.gateway_presences (
  topic text not null,
  -- One tracked presence: the channel (socket and join) that tracks it.
  presence_ref text not null,
  presence_key text not null,
  node_id uuid not null,
  user_id uuid,
  meta jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (topic, presence_ref)
);
create index if not exists gateway_presences_node on realtime.gateway_presences (node_id);

create unlogged table if not exists realtime.gateway_nodes (
  node_id uuid primary key,
  seen_at timestamptz not null default now()
);

alter table realtime.gateway_presences enable row level security;
alter table realtime.gateway_nodes enable row level security;
revoke all on realtime.gateway_presences, realtime.gateway_nodes from anon, authenticated;
grant all on realtime.gateway_presences, realtime.gateway_nodes to service_role;
