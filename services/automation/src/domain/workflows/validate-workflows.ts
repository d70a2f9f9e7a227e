import { zodMessages } from '@mailer/shared';
import type { EmailRenderer } from '../rendering/render-email';
import { workflowSchema, type Workflow } from './workflow-schema';

export type Validation = { ok: true; workflows: Workflow[] } | { ok: false; errors: string[] };

/**
 * Validates a workflow file (one workflow or an array of them) whole: the format, then every
 * Liquid template is parsed, so a broken template is refused now rather than at send time.
 * Every problem is listed, prefixed with where it is.
 */
export function validateWorkflows(document: unknown, renderer: EmailRenderer): Validation {
  const items = Array.isArray(document) ? document : [document];
  if (items.length === 0) return { ok: false, errors: ['the file holds no workflow'] };
  const errors: string[] = [];
  const workflows: Workflow[] = [];
  const names = new Set<string>();
  items.forEach((item, index) => {
    const where = Array.isArray(document) ? `[${index}].` : '';
    const parsed = workflowSchema.safeParse(item);
    if (!parsed.success) {
      errors.push(...zodMessages(parsed.error).map((message) => `${where}${message}`));
      return;
    }
    const workflow = parsed.data;
    if (names.has(workflow.name)) errors.push(`${where}name: "${workflow.name}" appears twice in the file`);
    names.add(workflow.name);
    workflow.steps.forEach((step, stepIndex) => {
      if (step.type !== 'email') return;
      const parts = [
        ['subject', step.subject, 'text'],
        ['html', step.html, 'html'],
        ['text', step.text, 'text'],
      ] as const;
      for (const [part, source, mode] of parts) {
        if (source === undefined) continue;
        try {
          renderer.check(source, mode);
        } catch (error) {
          errors.push(`${where}steps.${stepIndex}.${part}: invalid Liquid template: ${(error as Error).message}`);
        }
      }
    });
    workflows.push(workflow);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, workflows };
}
