import { setupTestEnvironment } from '../packages/testing/src/test-environment';

export default setupTestEnvironment;
