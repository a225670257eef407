export { SandboxClient, type RecordedRequest, type StateRecord } from '../sandbox/client';
