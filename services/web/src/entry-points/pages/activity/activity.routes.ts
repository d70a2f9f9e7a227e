import { Router, type Request } from 'express';
import { isRefused, type ActivityFilter } from '../../../data-access/automation.client';
import { callerOf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { activityPage } from './activity.page';

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 254) : undefined);

function filterOf(req: Request): ActivityFilter {
  return {
    email: text(req.query.email),
    contact: text(req.query.contact),
    workflow: text(req.query.workflow),
    campaign: text(req.query.campaign),
    outcome: text(req.query.outcome),
    before: text(req.query.before),
  };
}

const hrefOf = (filter: ActivityFilter) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
  return `/app/activity?${query.toString()}`;
};

/** /app/activity: the account's delivery log across workflows and campaigns, filtered in the address bar. */
export function activityRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const caller = callerOf(req, res);
    const filter = filterOf(req);
    const [answer, workflows] = await Promise.all([deps.automation.activity(caller, filter), deps.automation.workflows(caller)]);
    const refused = isRefused(answer);
    res.status(refused ? 422 : 200).type('html').send(
      activityPage({
        viewer: viewerOf(res),
        filter,
        workflows,
        entries: refused ? [] : answer.data,
        errors: refused ? answer.refused.map((message) => `This filter is not valid: ${message}.`) : undefined,
        nextHref: !refused && answer.next_before ? hrefOf({ ...filter, before: answer.next_before }) : undefined,
        firstHref: filter.before ? hrefOf({ ...filter, before: undefined }) : undefined,
      }),
    );
  });

  return router;
}
