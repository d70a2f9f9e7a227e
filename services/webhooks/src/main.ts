import { createLogger, runService } from '@mailer/shared';
import { startWebhooksService } from './webhooks-service';
import { loadWebhooksConfig } from './config';

const logger = createLogger('webhooks', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startWebhooksService(loadWebhooksConfig(), logger));
