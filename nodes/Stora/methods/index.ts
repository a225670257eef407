import { storaApiConnectionTest } from './credentialTest';
import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';

export const methods = { credentialTest: { storaApiConnectionTest }, listSearch, loadOptions };
