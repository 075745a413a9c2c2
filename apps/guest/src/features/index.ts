// Every feature registers itself on import. The order does not matter.
import './preview/index.ts';
import './selection/index.ts';
import './schedule/index.ts';
import './outofzone/index.ts';
import './waiting/index.ts';
import './ongoing/index.ts';
import './rating/index.ts';
import './abandoned/index.ts';
import './unsupported/index.ts';
import './inactive/index.ts';
import './out-of-quota/index.ts';
import './blocked/index.ts';
import './bot/index.ts';
import './in-call/index.ts';
