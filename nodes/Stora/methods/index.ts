import { storaApiConnectionTest } from './credentialCheck';
import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';

export const methods = { credentialTest: { storaApiConnectionTest }, listSearch, loadOptions };
