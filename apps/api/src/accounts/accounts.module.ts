import { Module, type DynamicModule } from '@nestjs/common';
import { AccountEnquiryService } from './account-enquiry.service';
import { AccountNameProvider } from './account-name-provider.interface';
import { AccountsController } from './accounts.controller';
import { EnquiryCache } from './enquiry-cache';

/** Account enquiry: the name behind a bank account, from the provider the config chose, cached. */
@Module({})
export class AccountsModule {
  static forRoot(options: { provider: AccountNameProvider; cache: EnquiryCache }): DynamicModule {
    return {
      module: AccountsModule,
      controllers: [AccountsController],
      providers: [{ provide: AccountNameProvider, useValue: options.provider }, { provide: EnquiryCache, useValue: options.cache }, AccountEnquiryService],
      exports: [AccountEnquiryService],
    };
  }
}
