import { Router } from 'express';
import { identityOf, notFound, type Pool } from '@mailer/shared';
import { contactRuns, dailySendOutcomes, workflowAndCampaignCounts } from '../../data-access/account-figures.repository';
import { listActivity } from '../../data-access/activity.repository';

const ID = /^[1-9][0-9]{0,14}$/;
const CHART_DAYS = 30;
const RECENT_FAILURES = 5;
const CONTACT_ENTRIES = 100;
const CONTACT_RUNS = 50;

/**
 * The account app's dashboard figures and one contact's history (signed identity, under
 * /internal/v1): sends per day for the chart, active workflows, campaigns in flight, the latest
 * failures with their reasons; a contact's workflow runs (the events that started them, each
 * step's state) and every decision and email of theirs, newest first.
 */
export function internalAccountFiguresRoutes(deps: { pool: Pool }): Router {
  const router = Router();

  router.get('/dashboard', async (_req, res) => {
    const accountId = identityOf(res).accountId;
    const [daily, counts, failures] = await Promise.all([
      dailySendOutcomes(deps.pool, accountId, CHART_DAYS),
      workflowAndCampaignCounts(deps.pool, accountId),
      listActivity(deps.pool, { accountId, outcome: 'failed', limit: RECENT_FAILURES }),
    ]);
    res.json({
      data: {
        daily,
        workflows_active: counts.workflowsActive,
        campaigns_in_flight: counts.campaignsInFlight,
        recent_failures: failures.map(({ at, at_text: _cursor, ...row }) => ({ ...row, at: at.toISOString() })),
      },
    });
  });

  router.get('/contacts/:id/activity', async (req, res) => {
    if (!ID.test(req.params.id)) throw notFound('contact');
    const accountId = identityOf(res).accountId;
    const contactId = Number(req.params.id);
    const [runs, entries] = await Promise.all([
      contactRuns(deps.pool, accountId, contactId, CONTACT_RUNS),
      listActivity(deps.pool, { accountId, contactId, limit: CONTACT_ENTRIES }),
    ]);
    res.json({
      data: {
        runs: runs.map((run) => ({ ...run, started_at: run.started_at.toISOString() })),
        entries: entries.map(({ at, at_text: _cursor, ...row }) => ({ ...row, at: at.toISOString() })),
      },
    });
  });

  return router;
}
