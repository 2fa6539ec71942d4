-- PowderMeet's live presence: the newest position sample of each skier, kept
-- for a short time so a friend who opens the map (or whose relay reconnects)
-- sees where everyone was last. The stream itself is LISTEN/NOTIFY; this table
-- is what the stream can always be rebuilt from.
--
-- Tables only. The publish RPC, the sweep, the policies and the notification
-- triggers are repeatable definitions in sql/0060..0064.

create schema if not exists meet;
grant usage on schema meet to anon, authenticated, service_role;

-- Unlogged: a position is worth seconds, and every publish rewrites one. Not
-- writing it to the WAL makes a publish much cheaper; the price is that a crash
-- (not a clean restart) empties the table, which the phones refill with their
-- next heartbeat within seconds. Standbys do not carry it.
create unlogged table meet.live_presence (
  user_id uuid primary key references social.profiles (id) on delete cascade,
  -- The sender's selected canonical resort, as stamped in its packet: the seed
  -- makes the packet's resort identity, not a server guess, gate friend routing.
  -- At most 52 characters, so `pos:resort:{resort_id}` fits PostgreSQL's
  -- 63-byte channel names.
  resort_id text not null,
  lat double precision not null,
  lon double precision not null,
  accuracy_m double precision,
  altitude_m double precision,
  speed_mps double precision,
  heading_deg double precision,
  -- The sender-resolved start: a node, or a directed edge and the fraction along it.
  node_id text,
  edge_id text,
  edge_fraction double precision,
  geohash6 text not null,
  -- When the GPS sample was taken, stamped by the sender (never send time).
  captured_at timestamptz not null,
  -- When the server stored it (summit.now()): the TTL runs on the server's clock.
  received_at timestamptz not null,
  constraint live_presence_resort_id check (resort_id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,51}$'),
  constraint live_presence_lat check (lat between -90 and 90),
  constraint live_presence_lon check (lon between -180 and 180),
  constraint live_presence_accuracy check (accuracy_m is null or (accuracy_m > 0 and accuracy_m <= 10000)),
  constraint live_presence_altitude check (altitude_m is null or altitude_m between -500 and 9000),
  constraint live_presence_speed check (speed_mps is null or speed_mps between 0 and 100),
  constraint live_presence_heading check (heading_deg is null or (heading_deg >= 0 and heading_deg < 360)),
  constraint live_presence_node_id check (node_id is null or node_id ~ '^[A-Za-z0-9_.:-]{1,64}$'),
  constraint live_presence_edge_id check (edge_id is null or edge_id ~ '^[A-Za-z0-9_.:-]{1,64}$'),
  constraint live_presence_edge_fraction check (
    edge_fraction is null or (edge_id is not null and edge_fraction >= 0 and edge_fraction <= 1)),
  constraint live_presence_geohash6 check (geohash6 ~ '^[0-9b-hjkmnp-z]{6}$')
)
-- Every publish rewrites its sender's row: room on the page lets it be a HOT
-- update, which touches no index while the resort stays the same.
with (fillfactor = 50);
-- Hydration reads one resort's rows. received_at has no index on purpose: it
-- changes on every publish (an index would make every update touch it), and the
-- sweep's scan of a table of one row per recently active skier, every few
-- minutes, costs less than that.
create index live_presence_resort on meet.live_presence (resort_id, user_id);

alter table meet.live_presence enable row level security;

-- Reads only, and only through the policies (own row, unblocked friends).
-- Every write goes through meet.broadcast_position and the sweep.
revoke all on meet.live_presence from anon, authenticated;
grant select on meet.live_presence to authenticated;
grant all on meet.live_presence to service_role;
