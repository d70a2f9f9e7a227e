import { teardownTestEnvironment } from '../packages/testing/src/test-environment';

export default teardownTestEnvironment;
