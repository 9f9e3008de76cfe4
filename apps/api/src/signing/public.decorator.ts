import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'paysign:isPublic';

/** Marks an operation as unsigned (health, the contract, the docs page). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
