-- The ski catalog PowderMeet's profile picker reads (skis_catalog): models an
-- operator imports from a CSV (summit skis import). One call imports a whole
-- file in one statement: every row is checked first, and a bad row refuses the
-- file with its line, so nothing is half imported. Rows are matched by brand
-- and model (case as written); a re-import of the same file changes nothing.
create or replace function activity.import_ski_models(p_rows jsonb)
  returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_row jsonb;
  v_line int;
  v_added int := 0;
  v_changed int := 0;
  v_unchanged int := 0;
  v_existing activity.ski_models;
  v_new activity.ski_models;
begin
  if auth.role() <> 'service_role' then
    perform private.fail('not_allowed', 'Only the operator imports the ski catalog: summit skis import FILE.');
  end if;
  if jsonb_typeof(p_rows) <> 'array' then
    perform private.fail('invalid_rows', 'Give the rows as a JSON array of {line, brand, model, category?, waist_width_mm?, topsheet_asset_key?}.');
  end if;
  for v_row in select value from jsonb_array_elements(p_rows) loop
    v_line := (v_row ->> 'line')::int;
    if length(btrim(coalesce(v_row ->> 'brand', ''))) not between 1 and 80
       or length(btrim(coalesce(v_row ->> 'model', ''))) not between 1 and 120 then
      perform private.fail('invalid_ski_model', format('Line %s: brand (1–80 characters) and model (1–120) are required.', v_line));
    end if;
    if length(coalesce(v_row ->> 'category', '')) > 40 then
      perform private.fail('invalid_ski_model', format('Line %s: category is at most 40 characters.', v_line));
    end if;
    if v_row ->> 'waist_width_mm' is not null
       and (v_row ->> 'waist_width_mm' !~ '^[0-9]{2,3}$' or (v_row ->> 'waist_width_mm')::int not between 50 and 200) then
      perform private.fail('invalid_ski_model', format('Line %s: waist_width_mm is a whole number of millimetres, 50 to 200 (got %s).',
        v_line, v_row ->> 'waist_width_mm'));
    end if;
    if v_row ->> 'topsheet_asset_key' is not null and v_row ->> 'topsheet_asset_key' !~ '^[A-Za-z0-9_.-]{1,120}$' then
      perform private.fail('invalid_ski_model', format('Line %s: topsheet_asset_key is 1–120 letters, digits, _ . - (got %s).',
        v_line, v_row ->> 'topsheet_asset_key'));
    end if;
  end loop;
  if (select count(*) from jsonb_array_elements(p_rows)) <>
     (select count(distinct (btrim(value ->> 'brand'), btrim(value ->> 'model'))) from jsonb_array_elements(p_rows)) then
    perform private.fail('duplicate_ski_model', 'The file names one brand and model twice: keep one line for each.');
  end if;

  for v_row in select value from jsonb_array_elements(p_rows) loop
    select * into v_existing from activity.ski_models m
    where m.brand = btrim(v_row ->> 'brand') and m.model = btrim(v_row ->> 'model');
    if not found then
      insert into activity.ski_models (brand, model, category, waist_width_mm, topsheet_asset_key)
      values (btrim(v_row ->> 'brand'), btrim(v_row ->> 'model'), nullif(v_row ->> 'category', ''),
              (v_row ->> 'waist_width_mm')::int, v_row ->> 'topsheet_asset_key');
      v_added := v_added + 1;
      continue;
    end if;
    -- A column the file leaves out keeps the stored value; a present one (null when empty) replaces it.
    v_new := v_existing;
    if v_row ? 'category' then v_new.category := nullif(v_row ->> 'category', ''); end if;
    if v_row ? 'waist_width_mm' then v_new.waist_width_mm := (v_row ->> 'waist_width_mm')::int; end if;
    if v_row ? 'topsheet_asset_key' then v_new.topsheet_asset_key := v_row ->> 'topsheet_asset_key'; end if;
    if (v_new.category, v_new.waist_width_mm, v_new.topsheet_asset_key)
       is not distinct from (v_existing.category, v_existing.waist_width_mm, v_existing.topsheet_asset_key) then
      v_unchanged := v_unchanged + 1;
    else
      update activity.ski_models m
      set category = v_new.category, waist_width_mm = v_new.waist_width_mm, topsheet_asset_key = v_new.topsheet_asset_key,
          updated_at = now()
      where m.id = v_existing.id;
      v_changed := v_changed + 1;
    end if;
  end loop;
  return jsonb_build_object('added', v_added, 'changed', v_changed, 'unchanged', v_unchanged,
                            'total', (select count(*) from activity.ski_models));
end
$$;
revoke all on function activity.import_ski_models(jsonb) from public;
grant execute on function activity.import_ski_models(jsonb) to service_role;
