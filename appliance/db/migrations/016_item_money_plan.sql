-- item_money planned once per connection (docs/decisions.md, "The read path"). PL/pgSQL caches its
-- statement's plan, but after five calls PostgreSQL compares the generic plan's estimate with the
-- custom plans' and kept choosing custom ones here (the stream ids are an array, whose generic
-- estimate is larger): the whole statement was planned again on every call, about 1 ms, four
-- fifths of a live stream's `GET /v1/streams/{id}` in the database (pgbench: 1,800 -> 7,000 reads/s).
alter function item_money(text[], timestamptz, jsonb) set plan_cache_mode = force_generic_plan;
