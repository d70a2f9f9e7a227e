import { teardownTestEnvironment } from '../packages/shared/src/testing/test-environment';

export default teardownTestEnvironment;
