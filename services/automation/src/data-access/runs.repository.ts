export interface WorkflowRun {
  id: number;
  event_id: string;
  event_name: string;
  event_properties: Record<string, unknown>;
}
