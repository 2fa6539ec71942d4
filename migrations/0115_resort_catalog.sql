-- The resort catalog the operators bring resorts up from (summit resort catalog
-- import): each resort's region, country, pass products and other search names
-- beside its box and centre. A resort ingested from an extract alone has none.
alter table mountain.resorts
  add column region text check (region is null or length(btrim(region)) between 1 and 80),
  add column country text check (country is null or length(btrim(country)) between 1 and 80),
  add column pass_products text[] not null default '{}',
  add column aliases text[] not null default '{}';
