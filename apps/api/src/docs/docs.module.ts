import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** The API reference, the contract, the signing protocol and its test vectors, and the operators' runbooks, served by the service itself. */
@Module({ controllers: [DocsController] })
export class DocsModule {}
