import { createLogger, runService } from '@mailer/shared';
import { loadEventsConfig } from './config';
import { startEventsService } from './events-service';

const logger = createLogger('events', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startEventsService(loadEventsConfig(), logger));
