-- How many writes that emitted events each item has had: the `itemVersion` every event about the
-- item carries, moved once by each such write in its own transaction.
ALTER TABLE items ADD COLUMN version bigint NOT NULL DEFAULT 0 CHECK (version >= 0);

-- The outbox: one row per event and subscribed endpoint, written in the transaction of the change
-- it reports. `due_at_ms` is when the next attempt may start; `held_until_ms` is the lease of the
-- dispatcher attempting it, so one attempt is in flight at a time. Delivered and failed rows keep
-- `finished_at_ms` for pruning after the retention period; `error_at_ms`, `last_status` and
-- `last_error` describe the latest attempt that did not succeed. Rows are only appended in key
-- order: no index on the random event id, whose inserts would land on random pages.
CREATE TABLE webhook_outbox (
    delivery_id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id            text COLLATE "C" NOT NULL,
    endpoint_id         text COLLATE "C" NOT NULL,
    type                text    NOT NULL,
    payload             text    NOT NULL,
    created_at_ms       bigint  NOT NULL,
    state               text    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts            bigint  NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    due_at_ms           bigint  NOT NULL,
    held_until_ms       bigint  NOT NULL DEFAULT 0,
    first_attempt_at_ms bigint,
    error_at_ms         bigint,
    last_status         bigint,
    last_error          text,
    finished_at_ms      bigint
);
-- What may be pruned.
CREATE INDEX webhook_outbox_finished ON webhook_outbox (finished_at_ms) WHERE state <> 'pending';
-- Each endpoint's pending rows by due time: what a claim for the endpoint takes next (a seek, however
-- many rows other endpoints have waiting), and the pending gauge read at every scrape. Then each
-- endpoint's latest error.
CREATE INDEX webhook_outbox_pending ON webhook_outbox (endpoint_id, due_at_ms) WHERE state = 'pending';
CREATE INDEX webhook_outbox_errors ON webhook_outbox (endpoint_id, error_at_ms) WHERE error_at_ms IS NOT NULL;
