-- Every table of every app schema has row level security: a table added
-- without it fails here, by name, whichever feature it belongs to.
begin;
select plan(4);

select ok((select count(distinct n.nspname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind = 'r' and n.nspname in ('auth', 'social', 'grids', 'mountain', 'meet', 'activity', 'push', 'storage', 'summit')) = 9,
  'the app schemas hold tables (the check below has something to look at)');
select is(array(select tests.tables_without_rls()), '{}'::text[],
  'every table of every app schema has row level security');

-- The helper names what it finds: a table made here without RLS, then with it.
create table social.rls_probe (id int);
select is(array(select tests.tables_without_rls()), array['social.rls_probe'],
  'a table without row level security is named');
alter table social.rls_probe enable row level security;
select is(array(select tests.tables_without_rls()), '{}'::text[],
  'and is no longer named once it has it');

select * from finish();
rollback;
