import { createLogger, runService } from '@mailer/shared';
import { startAutomationService } from './automation-service';
import { loadAutomationConfig } from './config';

const logger = createLogger('automation', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startAutomationService(loadAutomationConfig(), logger));
