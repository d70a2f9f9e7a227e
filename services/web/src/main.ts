import { createLogger, runService } from '@mailer/shared';
import { loadWebConfig } from './config';
import { startWebService } from './web-service';

const logger = createLogger('web', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startWebService(loadWebConfig(), logger));
