CREATE SEQUENCE "public"."activity_list_changes" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;
--> statement-breakpoint
-- The order search and the entry and exit audit searches keep whole answers the way the customer
-- lists do (migration customer_list_changes: list_changed, list_settled): orders, executions (an
-- order's "closing"), strategies (its symbol) and the audits move this counter; an audit row also
-- shows its customer and agent, so the audit searches read both counters.
CREATE FUNCTION order_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727101, 'activity_list_changes')::text
$$;
--> statement-breakpoint
CREATE FUNCTION audit_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727100, 'customer_list_changes') || '.' || list_settled(727101, 'activity_list_changes')
$$;
--> statement-breakpoint
CREATE TRIGGER orders_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727101, 'activity_list_changes');
--> statement-breakpoint
CREATE TRIGGER executions_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON executions
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727101, 'activity_list_changes');
--> statement-breakpoint
CREATE TRIGGER strategies_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON strategies
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727101, 'activity_list_changes');
--> statement-breakpoint
CREATE TRIGGER entry_audits_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON entry_audits
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727101, 'activity_list_changes');
--> statement-breakpoint
CREATE TRIGGER exit_audits_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON exit_audits
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727101, 'activity_list_changes');
