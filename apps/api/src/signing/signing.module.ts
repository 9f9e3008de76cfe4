import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { SignatureGuard } from './signature.guard';

/** Every route is signed unless marked public: the signature guard, for the whole app. It uses the merchants, nonce and rate-limit modules. */
@Module({
  providers: [{ provide: APP_GUARD, useClass: SignatureGuard }],
})
export class SigningModule {}
