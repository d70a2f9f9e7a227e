import { MailerClient, MailerRateLimitError, MailerValidationError } from './index';

// README example (the e2e test runs this file against the real stack and checks the README shows it verbatim).
export async function example(baseUrl: string, eventsUrl: string, apiKey: string) {
  // 429s are retried after Retry-After (at most twice, waiting at most 60 s each); then MailerRateLimitError.
  const client = new MailerClient({ baseUrl, eventsUrl, apiKey, maxRetries: 2 });

  const ada = await client.createContact({ email: 'ada@example.test', first_name: 'Ada', tags: ['trial'], subscribed: true });

  const page = await client.listContacts({ q: 'ada', subscribed: true, per_page: 10 });
  console.log(`${page.meta.total_count} contact(s) match; first: ${page.data[0]?.email}`);

  const accepted = await client.sendEvent(
    { event: 'trial_started', email: ada.email, properties: { plan: 'pro' } },
    { idempotencyKey: `trial-started-${ada.id}` },
  );

  let refusal: string | undefined;
  try {
    await client.createContact({ email: 'someone@missing.test' });
  } catch (error) {
    if (error instanceof MailerValidationError) refusal = `${error.errors.join('; ')} (domain_error: ${error.domainError ?? 'none'})`;
    else if (error instanceof MailerRateLimitError) refusal = `still rate limited; retry in ${error.retryAfterSeconds} s`;
    else throw error;
  }
  return { ada, page, accepted, refusal };
}
