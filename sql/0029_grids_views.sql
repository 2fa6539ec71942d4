-- Derived square state (R2): done if a freebie or a live moment, revealed if
-- revealed_at is set, else hidden. Security invoker: RLS of the caller applies.
create or replace view grids.user_square_states with (security_invoker = true) as
  select s.id, s.user_grid_id, s.position,
         case when s.freebie_at is not null
                or exists (select 1 from grids.moments m where m.user_square_id = s.id and not m.deleted) then 'done'
              when s.revealed_at is not null then 'revealed'
              else 'hidden' end as state,
         s.freebie_at is not null as freebie
  from grids.user_squares s
  where not s.deleted;
revoke all on grids.user_square_states from anon;
grant select on grids.user_square_states to authenticated, service_role;
