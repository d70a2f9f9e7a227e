import { createLogger, runService } from '@mailer/shared';
import { startCampaignsService } from './campaigns-service';
import { loadCampaignsConfig } from './config';

const logger = createLogger('campaigns', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startCampaignsService(loadCampaignsConfig(), logger));
