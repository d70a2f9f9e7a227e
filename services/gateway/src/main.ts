import { createLogger, runService } from '@mailer/shared';
import { loadGatewayConfig } from './config';
import { startGatewayService } from './gateway-service';

const logger = createLogger('gateway', { level: process.env.LOG_LEVEL });
void runService(logger, async () => startGatewayService(loadGatewayConfig(), logger));
