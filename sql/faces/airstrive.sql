-- The AirStrive face (migration 0112): the seed's names are the core's own
-- (user_grids, moments, moment_entries, group_unshares, my_groups(),
-- save_grid(), …), in two schemas, grids and social. The face puts them in one,
-- as the app's client addresses them unqualified:
--
--   * every grids and social table or view a client may read, as a simple
--     security_invoker view: the core's RLS decides every row, and writes go
--     through to the table under the same policies (the views are updatable);
--   * every grids and social function a client may call, as a wrapper with the
--     same arguments and result, running as the caller: the core's checks run.
--
-- Both are generated from the core's catalog and grants, so the face can never
-- show or allow more than the core does, and follows it as it changes. Names
-- the two schemas share resolve to grids. Nothing here is a rule of its own.

do $$
declare
  v_relation record;
  v_grant record;
  v_function record;
  v_call text;
  v_body text;
begin
  -- Drop what an earlier definition made: relations and functions come and go with the core.
  for v_relation in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where n.nspname = 'airstrive' and c.relkind = 'v' loop
    execute format('drop view airstrive.%I', v_relation.relname);
  end loop;
  for v_function in select p.oid::regprocedure as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                    where n.nspname = 'airstrive' loop
    execute format('drop function %s', v_function.signature);
  end loop;

  for v_relation in
    select distinct on (c.relname) n.nspname as schema, c.relname as name,
           has_table_privilege('anon', c.oid, 'select') as anon_reads,
           array(select privilege from unnest(array['select', 'insert', 'update', 'delete']) privilege
                 where has_table_privilege('authenticated', c.oid, privilege)) as privileges
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('grids', 'social') and c.relkind in ('r', 'v')
      and (has_table_privilege('authenticated', c.oid, 'select') or has_table_privilege('anon', c.oid, 'select'))
    order by c.relname, n.nspname = 'grids' desc
  loop
    execute format('create view airstrive.%I with (security_invoker = true) as select * from %I.%I',
                   v_relation.name, v_relation.schema, v_relation.name);
    if cardinality(v_relation.privileges) > 0 then
      execute format('grant %s on airstrive.%I to authenticated', array_to_string(v_relation.privileges, ', '), v_relation.name);
    end if;
    -- The core grants some writes column by column (the server's columns stay the server's): so does the face.
    for v_grant in
      select privilege, string_agg(quote_ident(a.attname), ', ' order by a.attnum) as columns
      from pg_attribute a cross join unnest(array['insert', 'update']) privilege
      where a.attrelid = format('%I.%I', v_relation.schema, v_relation.name)::regclass and a.attnum > 0 and not a.attisdropped
        and not privilege = any(v_relation.privileges)
        and has_column_privilege('authenticated', a.attrelid, a.attnum, privilege)
      group by privilege
    loop
      execute format('grant %s (%s) on airstrive.%I to authenticated', v_grant.privilege, v_grant.columns, v_relation.name);
    end loop;
    if v_relation.anon_reads then
      execute format('grant select on airstrive.%I to anon', v_relation.name);
    end if;
    execute format('grant all on airstrive.%I to service_role', v_relation.name);
  end loop;

  for v_function in
    select distinct on (p.proname, pg_get_function_identity_arguments(p.oid))
           n.nspname as schema, p.proname as name, p.oid, p.proretset as returns_set, p.provolatile as volatility,
           p.prorettype = 'void'::regtype as returns_void,
           has_function_privilege('anon', p.oid, 'execute') as anon_calls,
           has_function_privilege('authenticated', p.oid, 'execute') as user_calls,
           pg_get_function_arguments(p.oid) as arguments, pg_get_function_result(p.oid) as result,
           (select string_agg(format('%1$I => %1$I', name), ', ' order by position)
            from unnest(p.proargnames, coalesce(p.proargmodes, array_fill('i'::"char", array[coalesce(cardinality(p.proargnames), 0)])))
                 with ordinality as a(name, mode, position)
            where a.mode in ('i', 'b', 'v')) as named_call,
           p.pronargs as input_count,
           (select count(*) from unnest(p.proargnames) name where name = '') as unnamed
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('grids', 'social') and p.prokind = 'f'
      and (has_function_privilege('authenticated', p.oid, 'execute') or has_function_privilege('anon', p.oid, 'execute'))
    order by p.proname, pg_get_function_identity_arguments(p.oid), n.nspname = 'grids' desc
  loop
    -- Every argument is named (the REST body names them); a function with unnamed ones is not the apps'.
    continue when v_function.input_count > 0 and (v_function.named_call is null or v_function.unnamed > 0);
    v_call := format('%I.%I(%s)', v_function.schema, v_function.name, coalesce(v_function.named_call, ''));
    v_body := case when v_function.returns_set then 'select * from ' || v_call
                   when v_function.returns_void then 'select ' || v_call
                   else 'select ' || v_call end;
    execute format('create function airstrive.%I(%s) returns %s language sql %s set search_path = '''' as %L',
                   v_function.name, v_function.arguments, v_function.result,
                   case v_function.volatility when 's' then 'stable' when 'i' then 'stable' else 'volatile' end, v_body);
    execute format('revoke all on function airstrive.%I(%s) from public', v_function.name, pg_get_function_identity_arguments(v_function.oid));
    if v_function.user_calls then
      execute format('grant execute on function airstrive.%I(%s) to authenticated', v_function.name, pg_get_function_identity_arguments(v_function.oid));
    end if;
    if v_function.anon_calls then
      execute format('grant execute on function airstrive.%I(%s) to anon', v_function.name, pg_get_function_identity_arguments(v_function.oid));
    end if;
    execute format('grant execute on function airstrive.%I(%s) to service_role', v_function.name, pg_get_function_identity_arguments(v_function.oid));
  end loop;
end
$$;
