import type { Pool } from '@mailer/shared';
import type { EmailRenderer } from '../rendering/render-email';
import type { TriggerRoutes } from '../routing/trigger-routing';

/**
 * What every write of an account's workflows needs: the database, the renderer its templates are
 * checked with, and the trigger routing each write arms before it commits (a workflow saved is a
 * workflow every later event reaches).
 */
export interface WorkflowWrites {
  pool: Pool;
  renderer: EmailRenderer;
  routes: TriggerRoutes;
}
