import { createLogger, runService } from '@mailer/shared';
import { startContactsService } from './contacts-service';
import { loadContactsConfig } from './config';

const logger = createLogger('contacts', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startContactsService(loadContactsConfig(), logger));
