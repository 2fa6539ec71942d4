-- meet.live_presence has one writer, meet.broadcast_position, which refuses a
-- bad sample (each rule with its own code and hint) before anything is written;
-- the sweep and clear_my_position only delete. The table's CHECK constraints
-- repeated those rules, and PostgreSQL reads and plans every CHECK expression
-- again in each statement that writes a row: on the publish path, where every
-- sample is one such statement, that was about a fifth of the database's work.
-- The rules stay in the one place that writes; the service role, which could
-- write around them, now only reads and deletes, like everyone else but that
-- function.
alter table meet.live_presence
  drop constraint live_presence_resort_id,
  drop constraint live_presence_lat,
  drop constraint live_presence_lon,
  drop constraint live_presence_accuracy,
  drop constraint live_presence_altitude,
  drop constraint live_presence_speed,
  drop constraint live_presence_heading,
  drop constraint live_presence_node_id,
  drop constraint live_presence_edge_id,
  drop constraint live_presence_edge_fraction,
  drop constraint live_presence_geohash6;

revoke insert, update, truncate on meet.live_presence from service_role;
