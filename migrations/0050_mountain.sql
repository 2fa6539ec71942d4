-- PowderMeet's mountain pipeline: resorts, OSM/elevation snapshots, reviewed
-- canonical manifests, immutable graph blobs, publication history and the one
-- active pointer per resort, and the live status sidecar.
--
-- Tables only (plus indexes, RLS switched on and grants). Functions, triggers,
-- policies and views are repeatable definitions in sql/0050..0059.
--
-- The dataset identity everything downstream keys on is
--   (resort_id, manifest_version, graph_version, content_sha256)
-- with snapshot_date travelling beside it; dataset_version is the string form
-- m<manifest_version>-<graph_version>-<content_sha256>.
--
-- Clients (authenticated) read the catalog, published manifests and their
-- blobs, the publication history, the active pointer and the status sidecar.
-- Every write belongs to the service role (the worker and the operator CLI).

create schema if not exists mountain;
grant usage on schema mountain to anon, authenticated, service_role;

-- ------------------------------------------------------------------ catalog

create table mountain.resorts (
  id text primary key,
  name text not null,
  lat_min double precision not null,
  lon_min double precision not null,
  lat_max double precision not null,
  lon_max double precision not null,
  center_lat double precision not null,
  center_lon double precision not null,
  -- IANA zone of the resort's wall clock (lift hours, weekday/weekend), when known.
  timezone text,
  created_at timestamptz not null default now(),
  constraint resorts_id_format check (id ~ '^[a-z0-9][a-z0-9_-]{0,62}$' and id <> '__catalog__'),
  constraint resorts_name_present check (btrim(name) <> ''),
  constraint resorts_bbox check (
    lat_min between -90 and 90 and lat_max between -90 and 90 and lat_min <= lat_max
    and lon_min between -180 and 180 and lon_max between -180 and 180 and lon_min <= lon_max),
  constraint resorts_center_in_bbox check (
    center_lat between lat_min and lat_max and center_lon between lon_min and lon_max)
);

-- ------------------------------------------------------------------ snapshots

-- The OSM extract a graph is built from, byte for byte. Immutable: a build is
-- reproducible only while its inputs are.
create table mountain.osm_snapshots (
  resort_id text not null references mountain.resorts (id),
  snapshot_date date not null,
  format text not null,
  source_name text not null,
  bytes bytea not null,
  sha256 text not null,
  byte_count integer not null,
  -- What a build does with a routable way that has no elevation at all:
  -- 'fail' (the canonical rule) or 'assume_flat' (an operator's explicit
  -- choice at ingest for extracts with no DEM coverage).
  elevation_policy text not null default 'fail',
  created_at timestamptz not null default now(),
  primary key (resort_id, snapshot_date),
  constraint osm_snapshots_format check (format in ('overpass_json', 'osm_xml')),
  constraint osm_snapshots_sha256 check (sha256 ~ '^[0-9a-f]{64}$'),
  constraint osm_snapshots_size check (byte_count = octet_length(bytes)),
  constraint osm_snapshots_elevation_policy check (elevation_policy in ('fail', 'assume_flat'))
);

-- DEM input beside an OSM snapshot: SRTM .hgt tiles (zipped or not) or an
-- elevation map ("lat,lon" → metres). Several tiles may serve one snapshot.
create table mountain.elevation_snapshots (
  resort_id text not null,
  snapshot_date date not null,
  file_name text not null,
  format text not null,
  bytes bytea not null,
  sha256 text not null,
  byte_count integer not null,
  created_at timestamptz not null default now(),
  primary key (resort_id, snapshot_date, file_name),
  foreign key (resort_id, snapshot_date) references mountain.osm_snapshots (resort_id, snapshot_date),
  constraint elevation_snapshots_format check (format in ('srtm_hgt', 'srtm_hgt_zip', 'elevation_map_json')),
  constraint elevation_snapshots_sha256 check (sha256 ~ '^[0-9a-f]{64}$'),
  constraint elevation_snapshots_size check (byte_count = octet_length(bytes))
);

-- Which snapshot a build uses by default: per resort, else the '__catalog__' row.
create table mountain.resort_snapshot_pins (
  resort_id text primary key,
  snapshot_date date not null,
  updated_at timestamptz not null default now(),
  constraint resort_snapshot_pins_id check (resort_id = '__catalog__' or resort_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$')
);

-- ------------------------------------------------------------------ drafts

-- The review step's artifact: a drafted manifest (identities from named ways,
-- connector proposals with evidence, expected counts and evidence), one
-- immutable revision per change. Applying a revision stages a manifest.
create table mountain.manifest_drafts (
  resort_id text not null references mountain.resorts (id),
  revision integer not null,
  snapshot_date date not null,
  document jsonb not null,
  created_at timestamptz not null default now(),
  primary key (resort_id, revision),
  foreign key (resort_id, snapshot_date) references mountain.osm_snapshots (resort_id, snapshot_date),
  constraint manifest_drafts_revision check (revision >= 1),
  constraint manifest_drafts_document check (jsonb_typeof(document) = 'object')
);

-- ------------------------------------------------------------------ manifests

create table mountain.resort_canonical_manifest (
  resort_id text not null references mountain.resorts (id),
  manifest_version integer not null,
  -- Canonical = unique, named, routable identities the manifest claims.
  expected_trail_count integer not null,
  expected_lift_count integer not null,
  -- The resort's advertised totals, kept as evidence beside the canonical counts.
  headline_trail_count integer,
  headline_lift_count integer,
  canonical_counts_reviewed boolean not null default false,
  evidence_observed_at date,
  evidence_urls text[] not null default '{}',
  validator_notes text not null default '',
  last_validated_at timestamptz,
  -- SHA-256 of the manifest's content (counts and every row); applying the
  -- same content again stages nothing.
  content_hash text not null,
  status text not null default 'staged',
  created_at timestamptz not null default now(),
  primary key (resort_id, manifest_version),
  constraint manifest_version_positive check (manifest_version >= 1),
  constraint manifest_counts check (expected_trail_count >= 0 and expected_lift_count >= 0
    and coalesce(headline_trail_count, 0) >= 0 and coalesce(headline_lift_count, 0) >= 0),
  constraint manifest_status check (status in ('staged', 'published')),
  constraint manifest_content_hash check (content_hash ~ '^[0-9a-f]{64}$')
);

create table mountain.canonical_trail (
  id uuid primary key default gen_random_uuid(),
  resort_id text not null,
  manifest_version integer not null,
  name text not null,
  difficulty text,
  is_groomed boolean,
  has_moguls boolean not null default false,
  is_gladed boolean not null default false,
  length_m double precision,
  vert_m double precision,
  osm_way_ids text[] not null default '{}',
  -- Display geometry (GeoJSON LineString/MultiLineString); never topology.
  canonical_geometry jsonb,
  name_fallback_reviewed boolean not null default false,
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version),
  unique (resort_id, manifest_version, name),
  constraint canonical_trail_name check (name <> '' and name = btrim(name)),
  constraint canonical_trail_difficulty check (
    difficulty is null or difficulty in ('green', 'blue', 'black', 'doubleBlack', 'terrainPark')),
  constraint canonical_trail_totals check (coalesce(length_m, 1) > 0 and coalesce(vert_m, 0) >= 0),
  constraint canonical_trail_source check (cardinality(osm_way_ids) > 0 or name_fallback_reviewed)
);

create table mountain.canonical_lift (
  id uuid primary key default gen_random_uuid(),
  resort_id text not null,
  manifest_version integer not null,
  name text not null,
  lift_type text,
  capacity integer,
  ride_time_s double precision,
  vertical_rise_m double precision,
  weekday_wait_min double precision,
  weekend_wait_min double precision,
  -- [lon, lat] of the reviewed stations.
  base_coord double precision[],
  top_coord double precision[],
  osm_way_ids text[] not null default '{}',
  canonical_geometry jsonb,
  -- Reviewed operating hours, resort-local decimal hours.
  open_hour double precision,
  close_hour double precision,
  night_close_hour double precision,
  name_fallback_reviewed boolean not null default false,
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version),
  unique (resort_id, manifest_version, name),
  constraint canonical_lift_name check (name <> '' and name = btrim(name)),
  constraint canonical_lift_type check (lift_type is null or lift_type in (
    'chair_lift', 'gondola', 'cable_car', 'mixed_lift', 'drag_lift', 't-bar', 'j-bar', 'platter',
    'rope_tow', 'magic_carpet', 'funicular', 'unknown')),
  constraint canonical_lift_capacity check (capacity is null or capacity between 0 and 65535),
  constraint canonical_lift_ride_time check (ride_time_s is null or (ride_time_s > 0 and ride_time_s <= 7200)),
  constraint canonical_lift_rise check (vertical_rise_m is null or vertical_rise_m >= 0),
  constraint canonical_lift_waits check (coalesce(weekday_wait_min, 0) between 0 and 60
    and coalesce(weekend_wait_min, 0) between 0 and 60),
  constraint canonical_lift_coords check (
    (base_coord is null or cardinality(base_coord) = 2) and (top_coord is null or cardinality(top_coord) = 2)),
  constraint canonical_lift_hours check (
    coalesce(open_hour, 0) between 0 and 24 and coalesce(close_hour, 0) between 0 and 24
    and coalesce(night_close_hour, 0) between 0 and 24),
  constraint canonical_lift_source check (cardinality(osm_way_ids) > 0 or name_fallback_reviewed)
);

-- Reviewed connectors: explicit links between two existing OSM vertices that
-- the build treats exactly like piste:type=connection ways. connector_id takes
-- the place of a way id in edge ids (c<connector_id>).
create table mountain.canonical_connector (
  resort_id text not null,
  manifest_version integer not null,
  connector_id bigint not null,
  from_osm_node_id bigint not null,
  to_osm_node_id bigint not null,
  bidirectional boolean not null default true,
  -- The review step's evidence (kind, distance, elevations, ways), as accepted.
  evidence jsonb,
  primary key (resort_id, manifest_version, connector_id),
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version),
  constraint canonical_connector_ids check (connector_id > 0 and from_osm_node_id > 0 and to_osm_node_id > 0
    and from_osm_node_id <> to_osm_node_id)
);

-- Hand-traced display geometry; append-only, the latest per (kind, name) wins.
create table mountain.canonical_geometry_override (
  id bigint generated always as identity primary key,
  resort_id text not null references mountain.resorts (id),
  target_kind text not null,
  target_name text not null,
  geometry jsonb not null,
  manifest_version_introduced integer not null,
  created_at timestamptz not null default now(),
  foreign key (resort_id, manifest_version_introduced)
    references mountain.resort_canonical_manifest (resort_id, manifest_version),
  constraint geometry_override_kind check (target_kind in ('trail', 'lift')),
  constraint geometry_override_name check (target_name <> '')
);
create index canonical_geometry_override_target
  on mountain.canonical_geometry_override (resort_id, target_kind, target_name, id desc);

-- The reviewed rendezvous overlay of one manifest: the only places a meet may end.
create table mountain.canonical_rendezvous_point (
  resort_id text not null,
  manifest_version integer not null,
  anchor_osm_node_id bigint not null,
  kind text not null,
  display_name text not null,
  confidence double precision not null,
  quality double precision not null,
  primary key (resort_id, manifest_version, anchor_osm_node_id),
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version),
  constraint rendezvous_kind check (kind in ('lodge', 'restaurant', 'liftBase', 'liftTop', 'midStation', 'summit', 'landmark')),
  constraint rendezvous_display_name check (btrim(display_name) <> ''),
  constraint rendezvous_scores check (confidence between 0 and 1 and quality between 0 and 1),
  constraint rendezvous_anchor check (anchor_osm_node_id > 0)
);

-- ------------------------------------------------------------------ builds

-- One immutable build output per (resort, manifest, snapshot, graph version).
-- sha256 is the content identity (SHA-256 of the uncompressed canonical
-- JSON); blob_sha256 checks the compressed bytes in transit.
create table mountain.resort_graph_blob (
  resort_id text not null,
  manifest_version integer not null,
  snapshot_date date not null,
  graph_version text not null,
  blob bytea not null,
  sha256 text not null,
  blob_sha256 text not null,
  fingerprint text not null,
  node_count integer not null,
  edge_count integer not null,
  compressed_size integer not null,
  uncompressed_size integer not null,
  -- The builder's counts (runs by difficulty, components, routability, ...).
  build_report jsonb not null default '{}',
  built_at timestamptz not null default now(),
  primary key (resort_id, manifest_version, snapshot_date, graph_version),
  unique (resort_id, manifest_version, snapshot_date, graph_version, sha256),
  foreign key (resort_id, manifest_version) references mountain.resort_canonical_manifest (resort_id, manifest_version),
  foreign key (resort_id, snapshot_date) references mountain.osm_snapshots (resort_id, snapshot_date),
  constraint graph_blob_version check (graph_version ~ '^v[0-9]+$'),
  constraint graph_blob_sha256 check (sha256 ~ '^[0-9a-f]{64}$' and blob_sha256 ~ '^[0-9a-f]{64}$'),
  constraint graph_blob_fingerprint check (fingerprint ~ '^[0-9]+:[0-9]+:[0-9a-f]{16}$'
    and fingerprint like node_count || ':' || edge_count || ':%'),
  constraint graph_blob_sizes check (compressed_size = octet_length(blob) and uncompressed_size > 0
    and node_count >= 0 and edge_count >= 0)
);

-- ------------------------------------------------------------------ publication

-- Every exact identity ever published. Immutable.
create table mountain.resort_canonical_publication (
  id bigint generated always as identity primary key,
  resort_id text not null,
  manifest_version integer not null,
  snapshot_date date not null,
  graph_version text not null,
  content_sha256 text not null,
  first_published_at timestamptz not null default now(),
  unique (resort_id, manifest_version, snapshot_date, graph_version, content_sha256),
  -- The content hash covers the snapshot date, so this is unique too: the key
  -- status sidecars and meet requests use.
  unique (resort_id, manifest_version, graph_version, content_sha256),
  foreign key (resort_id, manifest_version, snapshot_date, graph_version, content_sha256)
    references mountain.resort_graph_blob (resort_id, manifest_version, snapshot_date, graph_version, sha256)
);
create index resort_canonical_publication_newest
  on mountain.resort_canonical_publication (resort_id, manifest_version, first_published_at desc, id desc);

-- The one active publication per resort; moved only by publish_canonical_manifest.
create table mountain.resort_canonical_active (
  resort_id text primary key references mountain.resorts (id),
  publication_id bigint not null references mountain.resort_canonical_publication (id),
  activated_at timestamptz not null default now()
);
create index resort_canonical_active_publication on mountain.resort_canonical_active (publication_id);

-- Every move of the active pointer (publish or rollback). Append-only.
create table mountain.resort_canonical_activation (
  id bigint generated always as identity primary key,
  resort_id text not null references mountain.resorts (id),
  publication_id bigint not null references mountain.resort_canonical_publication (id),
  previous_publication_id bigint references mountain.resort_canonical_publication (id),
  rollback boolean not null,
  activated_at timestamptz not null default now()
);
create index resort_canonical_activation_resort on mountain.resort_canonical_activation (resort_id, id desc);

-- ------------------------------------------------------------------ status sidecar

-- Observed operational status for one exact published identity, one row per
-- resort and UTC hour (hour_key YYYY-MM-DDTHH). Never part of the dataset:
-- usable only while observed_at <= now + 120 s and now < expires_at.
-- edges: {"<stable edge id>": {"is_open": bool, "wait_minutes": number|null}}.
create table mountain.resort_status (
  resort_id text not null,
  hour_key text not null,
  manifest_version integer not null,
  graph_version text not null,
  content_sha256 text not null,
  observed_at timestamptz not null,
  expires_at timestamptz not null,
  source text not null,
  edges jsonb not null,
  recorded_at timestamptz not null default now(),
  primary key (resort_id, hour_key),
  foreign key (resort_id, manifest_version, graph_version, content_sha256)
    references mountain.resort_canonical_publication (resort_id, manifest_version, graph_version, content_sha256),
  constraint resort_status_hour_key check (hour_key ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}$'),
  constraint resort_status_window check (expires_at > observed_at),
  constraint resort_status_source check (btrim(source) <> ''),
  constraint resort_status_edges check (jsonb_typeof(edges) = 'object')
);
create index resort_status_identity
  on mountain.resort_status (resort_id, manifest_version, graph_version, content_sha256, observed_at desc);

-- ------------------------------------------------------------------ access

alter table mountain.resorts enable row level security;
alter table mountain.osm_snapshots enable row level security;
alter table mountain.elevation_snapshots enable row level security;
alter table mountain.resort_snapshot_pins enable row level security;
alter table mountain.manifest_drafts enable row level security;
alter table mountain.resort_canonical_manifest enable row level security;
alter table mountain.canonical_trail enable row level security;
alter table mountain.canonical_lift enable row level security;
alter table mountain.canonical_connector enable row level security;
alter table mountain.canonical_geometry_override enable row level security;
alter table mountain.canonical_rendezvous_point enable row level security;
alter table mountain.resort_graph_blob enable row level security;
alter table mountain.resort_canonical_publication enable row level security;
alter table mountain.resort_canonical_active enable row level security;
alter table mountain.resort_canonical_activation enable row level security;
alter table mountain.resort_status enable row level security;

revoke all on all tables in schema mountain from anon, authenticated;
grant select on mountain.resorts to anon, authenticated;
-- Published content only (policies in sql/0053); snapshots, drafts, pins and
-- the activation log stay with the service role.
grant select on mountain.resort_canonical_manifest, mountain.canonical_trail, mountain.canonical_lift,
  mountain.canonical_connector, mountain.canonical_geometry_override, mountain.canonical_rendezvous_point,
  mountain.resort_graph_blob, mountain.resort_canonical_publication, mountain.resort_canonical_active,
  mountain.resort_status
  to authenticated;
grant all on all tables in schema mountain to service_role;
