import { fail, runService } from './service';

runService().catch((error: unknown) => fail('the service failed to start', error));
