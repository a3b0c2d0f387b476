-- An ingest's index write in ONE round trip (src/archive/pg-index.ts): the failure, its labels and
-- files, and its group, as one statement (a function call), so atomic without BEGIN/COMMIT.
-- Inside a VOLATILE function every statement takes a fresh snapshot (READ COMMITTED), so the steps
-- keep the semantics the separate statements had: the failure is inserted ON CONFLICT DO NOTHING
-- (the same bundle sent to two replicas at once is one failure), its group row is created ON
-- CONFLICT and then locked FOR UPDATE, and "has this run been seen in the group" is asked after
-- the lock, so it sees a concurrent ingest of the same run that committed while this one waited.
-- Versioned names: a later change adds _v2, and a replica not yet upgraded keeps calling _v1.
CREATE FUNCTION fdiag_assign_group_v1(p_failure_id text, p_run_id text, p_failed_at bigint, p_group jsonb) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	g failure_groups%ROWTYPE;
	v_fp text := p_group->>'fingerprint';
	v_run_seen boolean;
	v_first boolean;
	v_first_seen bigint;
	v_last_seen bigint;
	v_status text;
	v_regressed_at bigint;
	v_newest boolean;
BEGIN
	INSERT INTO failure_groups (id, fingerprint, class, category, title, first_seen, last_seen, count, runs_affected, status, resolved_at, regressed_at, example_failure_id, hint)
	VALUES (p_group->>'id', v_fp, p_group->>'class', p_group->>'category', p_group->>'title', p_failed_at, p_failed_at, 0, 0, 'new', NULL, NULL, NULL, p_group->>'hint')
	ON CONFLICT (fingerprint) DO NOTHING;
	-- Locked until commit: a concurrent ingest into this group waits here, then sees this failure.
	SELECT * INTO g FROM failure_groups WHERE fingerprint = v_fp FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'group of fingerprint % vanished', v_fp;
	END IF;
	v_run_seen := EXISTS (SELECT 1 FROM failures WHERE group_id = g.id AND run_id = p_run_id AND id <> p_failure_id);
	v_first := g.count = 0;
	v_first_seen := CASE WHEN v_first THEN p_failed_at ELSE least(g.first_seen, p_failed_at) END;
	v_last_seen := CASE WHEN v_first THEN p_failed_at ELSE greatest(g.last_seen, p_failed_at) END;
	v_status := g.status;
	v_regressed_at := g.regressed_at;
	-- isoWeekStart (groups.ts): Monday 00:00 UTC of the week; epoch day 0 (1970-01-01) was a Thursday.
	IF v_status = 'new' AND floor((floor(v_first_seen / 86400000.0) + 3) / 7) <> floor((floor(v_last_seen / 86400000.0) + 3) / 7) THEN
		v_status := 'ongoing';
	END IF;
	IF v_status = 'resolved' AND g.resolved_at IS NOT NULL AND p_failed_at > g.resolved_at THEN
		v_status := 'regressed';
		v_regressed_at := p_failed_at;
	END IF;
	v_newest := v_first OR p_failed_at >= g.last_seen;
	UPDATE failure_groups SET
		count = g.count + 1,
		runs_affected = g.runs_affected + CASE WHEN v_run_seen THEN 0 ELSE 1 END,
		first_seen = v_first_seen,
		last_seen = v_last_seen,
		status = v_status,
		regressed_at = v_regressed_at,
		example_failure_id = CASE WHEN v_newest THEN p_failure_id ELSE g.example_failure_id END,
		hint = CASE WHEN v_newest THEN p_group->>'hint' ELSE g.hint END
	WHERE id = g.id;
	UPDATE failures SET fingerprint = v_fp, group_id = g.id WHERE id = p_failure_id;
END
$$;
--> statement-breakpoint
CREATE FUNCTION fdiag_ingest_failure_v1(p_failure jsonb, p_labels jsonb, p_files jsonb, p_group jsonb) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_id text := p_failure->>'id';
	v_run_id text := p_failure->>'run_id';
	v_failed_at bigint := (p_failure->>'failed_at')::bigint;
BEGIN
	-- The same bytes arriving at two replicas at once: the second waits on the first's key, then does nothing.
	INSERT INTO failures (id, bundle_id, run_id, kind, host, failed_at, started_at, ingested_at, exit_code, signal, class, category, confidence, hint, evidence, ruleset_version, exception_type, reward, harbor_reward, infra_class, gpu_count, labels, manifest, blob_path, blob_bytes)
	SELECT id, bundle_id, run_id, kind, host, failed_at, started_at, ingested_at, exit_code, signal, class, category, confidence, hint, evidence, ruleset_version, exception_type, reward, harbor_reward, infra_class, gpu_count, labels, manifest, blob_path, blob_bytes
	FROM jsonb_populate_record(NULL::failures, p_failure)
	ON CONFLICT (id) DO NOTHING;
	IF NOT FOUND THEN
		RETURN false;
	END IF;
	INSERT INTO failure_labels (failure_id, key, value, failed_at)
	SELECT v_id, l.key, l.value, v_failed_at FROM jsonb_each_text(p_labels) AS l;
	INSERT INTO failure_files (failure_id, path, bytes, sha256, content)
	SELECT v_id, f.path, f.bytes, f.sha256, f.content FROM jsonb_to_recordset(p_files) AS f(path text, bytes integer, sha256 text, content text);
	PERFORM fdiag_assign_group_v1(v_id, v_run_id, v_failed_at, p_group);
	RETURN true;
END
$$;
