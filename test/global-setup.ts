import { setupTestEnvironment } from '../packages/shared/src/testing/test-environment';

export default setupTestEnvironment;
