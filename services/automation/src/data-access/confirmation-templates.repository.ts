import type { Pool, PoolClient } from '@mailer/shared';
import type { ConfirmationTemplate } from '../domain/confirmation/confirmation-workflow';

type Queryable = Pool | PoolClient;

/** The account's own confirmation email, or undefined while it uses the default. */
export async function findConfirmationTemplate(db: Queryable, accountId: number): Promise<ConfirmationTemplate | undefined> {
  const { rows } = await db.query<ConfirmationTemplate>('SELECT subject, html, text FROM confirmation_templates WHERE account_id = $1', [accountId]);
  return rows[0];
}

export async function saveConfirmationTemplate(db: Queryable, accountId: number, template: ConfirmationTemplate): Promise<void> {
  await db.query(
    `INSERT INTO confirmation_templates (account_id, subject, html, text) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id) DO UPDATE SET subject = EXCLUDED.subject, html = EXCLUDED.html, text = EXCLUDED.text, updated_at = now()`,
    [accountId, template.subject, template.html, template.text],
  );
}
