/*
 * GENERATED FILE, DO NOT EDIT.
 * Source: openapi/payment-api.yaml. Regenerate with `npm run generate`.
 * Inputs: sha256 833a836bc2f503e9112fe0f871361c7b6603aa13b0084435825323f0cee2af5d
 */

/** The contract's component schemas, as data: the one source of every enum, pattern and limit. */
export const SCHEMAS = {
  "Bank": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "name",
      "code",
      "logo",
      "category"
    ],
    "properties": {
      "name": {
        "type": "string",
        "description": "Display name of the institution."
      },
      "code": {
        "type": "string",
        "pattern": "^[0-9]{3,6}$",
        "description": "The service's own code; use it as `bankCode` in account enquiry.\nDeposit money banks, merchant banks and non-interest banks use their\nCBN 3-digit code; microfinance banks and other financial institutions\ntheir CBN 5-digit code; payment service banks and wallets without\neither use their 6-digit NIP institution code.\n"
      },
      "logo": {
        "type": [
          "string",
          "null"
        ],
        "description": "Always null in this version."
      },
      "category": {
        "type": "string",
        "enum": [
          "commercial",
          "merchant",
          "non-interest",
          "microfinance",
          "payment-service",
          "fintech"
        ],
        "description": "Kind of institution. An extension to the interface document."
      }
    }
  },
  "AccountEnquiryRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "bankCode",
      "accountNumber"
    ],
    "properties": {
      "bankCode": {
        "type": "string",
        "pattern": "^[0-9]{3,6}$",
        "description": "A `code` from the list banks operation."
      },
      "accountNumber": {
        "type": "string",
        "pattern": "^[0-9]{10}$",
        "description": "10-digit NUBAN account number."
      }
    }
  },
  "AccountEnquiryResult": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "success",
      "code",
      "accountName",
      "message",
      "enquiryId",
      "expiresAt"
    ],
    "properties": {
      "success": {
        "type": "boolean",
        "const": true
      },
      "code": {
        "type": "string",
        "const": "00000000"
      },
      "accountName": {
        "type": "string",
        "description": "Name of the account holder, upper case."
      },
      "message": {
        "type": "string",
        "const": "Success"
      },
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId",
        "description": "This enquiry, kept for the calling merchant; a payout to the account names it."
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time",
        "description": "Until when a payout may name `enquiryId` (`ENQUIRY_VALIDITY_SECONDS` after the enquiry, 30 minutes by default)."
      }
    }
  },
  "AccountEnquiryFailure": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "success",
      "code",
      "message",
      "requestId",
      "retryable"
    ],
    "properties": {
      "success": {
        "type": "boolean",
        "const": false
      },
      "code": {
        "type": "string",
        "enum": [
          "NUBAN_CHECK_FAILED",
          "ACCOUNT_NOT_FOUND",
          "ACCOUNT_DORMANT",
          "BANK_UNAVAILABLE",
          "UPSTREAM_TIMEOUT"
        ]
      },
      "message": {
        "type": "string"
      },
      "requestId": {
        "type": "string"
      },
      "retryable": {
        "type": "boolean"
      }
    }
  },
  "Reference": {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "pattern": "^(?!\\.+$)[A-Za-z0-9._-]{1,64}$",
    "description": "The merchant's own reference, unique per merchant. It is the\nidempotency key. It must hold a character other than `.`, so that\n`.` and `..` never become a path segment.\n"
  },
  "Currency": {
    "type": "string",
    "enum": [
      "NGN",
      "USD",
      "GBP",
      "EUR",
      "GHS",
      "KES",
      "ZAR"
    ],
    "description": "ISO 4217 currency code."
  },
  "CreatePayinRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "amount",
      "currency",
      "customerEmail",
      "reference"
    ],
    "properties": {
      "amount": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1000000000,
        "description": "In major units (naira, not kobo), written in plain decimal\nnotation with at most 2 decimal places, such as `1000.50`.\nExponents (`1e-7`, `1E-2`) are refused.\n"
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "customerEmail": {
        "type": "string",
        "format": "email",
        "maxLength": 254
      },
      "customerName": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S",
        "description": "Must hold a visible character, as every text field must; format and default-ignorable characters (bidi controls and marks, zero-width characters, soft hyphens, variation selectors, Hangul fillers) are refused."
      },
      "gateway": {
        "$ref": "#/components/schemas/PayinChannel"
      },
      "narration": {
        "type": "string",
        "maxLength": 255,
        "pattern": "\\S",
        "description": "Must hold a visible character, as every text field must; format and default-ignorable characters (bidi controls and marks, zero-width characters, soft hyphens, variation selectors, Hangul fillers) are refused."
      },
      "notifyUrl": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048,
        "description": "https URL notified of status changes; http is accepted in sandbox\nmode only. Normalised as `redirectUrl` is, and refused on the same\nforms (`unsafe_url`).\n"
      },
      "redirectUrl": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048,
        "description": "https URL the customer returns to; http is accepted in sandbox mode\nonly. Stored, answered and redirected to in its WHATWG URL form,\nplain ASCII: the host in punycode, the path, query and fragment\npercent-encoded (`https://пример.example/ü?q=й` becomes\n`https://xn--e1afmkfd.example/%C3%BC?q=%D0%B9`), at most 2048\ncharacters once normalised (`max_length`). Refused in every mode\nwith field code `unsafe_url`: a user name or password (anything\nbefore `@` in the host part, as in `https://shop.example:443@evil.example/`)\nand a backslash anywhere (`https:\\\\evil.example`), forms whose\nreal host is not the one they seem to name. A URL with no WHATWG\nform, such as a host with no punycode form, is refused with `format`.\n"
      },
      "reference": {
        "$ref": "#/components/schemas/Reference"
      }
    }
  },
  "PayinChannel": {
    "type": "string",
    "enum": [
      "card",
      "bank_transfer",
      "ussd"
    ],
    "description": "The payment channel the checkout offers. Without one, the checkout\noffers every channel the deployment has a gateway adapter for.\n"
  },
  "PayinStatus": {
    "type": "string",
    "enum": [
      "PENDING",
      "SUCCESSFUL",
      "FAILED",
      "ABANDONED",
      "CANCELLED"
    ],
    "description": "A payin is created `PENDING` and moves at most once, to one final state:\n`SUCCESSFUL` (paid), `FAILED` (the payment cannot go on: declined\n`PAYIN_MAX_ATTEMPTS` times, `too_many_attempts`, or once for a reason\nthat ends it, `fraud_suspected`), `ABANDONED` (not paid before\n`expiresAt`) or `CANCELLED` (the customer cancelled at checkout, or\nthe merchant cancelled it).\nFinal states never change. A declined attempt short of those is not a\ntransition: the payin stays `PENDING`, with the attempt in `attempts`.\n",
    "x-transitions": {
      "PENDING": [
        "PENDING",
        "SUCCESSFUL",
        "FAILED",
        "ABANDONED",
        "CANCELLED"
      ],
      "SUCCESSFUL": [],
      "FAILED": [],
      "ABANDONED": [],
      "CANCELLED": []
    }
  },
  "DeclineReason": {
    "type": "string",
    "enum": [
      "card_declined",
      "insufficient_funds",
      "expired_card",
      "incorrect_cvc",
      "transfer_not_received",
      "fraud_suspected"
    ],
    "description": "Why a payment attempt was declined. `fraud_suspected` ends the payin\nat once (`FAILED` with that reason); the others leave it `PENDING`\nfor another try, until the `PAYIN_MAX_ATTEMPTS`-th decline. A payin\ntaken on a provider's page (`PAYMENT_GATEWAY=paystack`) is retried\nthere, and a payment the provider reports failed ends the payin with\nits reason.\n"
  },
  "FailureReason": {
    "type": "string",
    "enum": [
      "card_declined",
      "insufficient_funds",
      "expired_card",
      "incorrect_cvc",
      "transfer_not_received",
      "fraud_suspected",
      "too_many_attempts",
      "checkout_expired",
      "customer_cancelled",
      "merchant_cancelled"
    ],
    "description": "Why a payin did not succeed: for `FAILED`, `too_many_attempts` (each\ndecline is in `attempts`), `fraud_suspected`, or a provider's decline\nreason; `checkout_expired` for `ABANDONED`; `customer_cancelled` or\n`merchant_cancelled` for `CANCELLED`. New reasons may be added.\n"
  },
  "PageLimit": {
    "type": "integer",
    "minimum": 1,
    "maximum": 100,
    "default": 20,
    "description": "Items per page."
  },
  "Cursor": {
    "type": "string",
    "minLength": 1,
    "maxLength": 512,
    "pattern": "^[A-Za-z0-9_-]+$",
    "description": "An opaque page position, as returned in `nextCursor`."
  },
  "PayinList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Payin"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean",
        "description": "Whether another page follows."
      },
      "nextCursor": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Cursor"
          },
          {
            "type": "null"
          }
        ],
        "description": "Pass as `cursor`, with the same filters, for the next page; `null` on the last page."
      }
    }
  },
  "Balance": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "currency",
      "available",
      "pending",
      "held"
    ],
    "properties": {
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "available": {
        "type": "number",
        "minimum": 0,
        "description": "In major units. Settled money, free to pay out. Never below zero."
      },
      "pending": {
        "type": "number",
        "minimum": 0,
        "description": "In major units. Successful payins, net of their fees, not yet settled."
      },
      "held": {
        "type": "number",
        "minimum": 0,
        "description": "In major units. Money set aside for payouts and refunds under way, payout fees included."
      }
    }
  },
  "BalanceEntryType": {
    "type": "string",
    "enum": [
      "payin_credit",
      "payin_fee",
      "settlement",
      "payout_hold",
      "payout_release",
      "payout_debit",
      "payout_fee",
      "payout_reversal",
      "payout_fee_refund",
      "refund_hold",
      "refund_release",
      "refund_debit",
      "refund_fee_return",
      "correction"
    ],
    "description": "What moved the money: `payin_credit`, a successful payin's amount into\n`pending`; `payin_fee`, its fee out of `pending`; `settlement`, a\npayin's net amount from `pending` to `available` (two entries, one\nout of each); `payout_hold`, a payout's amount and fee from\n`available` to `held`; `payout_release`, the same back when it fails\nor is cancelled; `payout_debit` and `payout_fee`, its amount and fee\nout of `held` when it succeeds; `payout_reversal` and\n`payout_fee_refund`, both back into `available` when it is reversed;\n`refund_hold`, a refund's amount from `pending` or `available` to\n`held`; `refund_release`, the same back when it fails or is\ncancelled; `refund_debit`, its amount out of `held` when it succeeds;\n`refund_fee_return`, the payin fee's share given back into\n`available` with it, when the merchant's fees say so; `correction`,\nan operator's correction of a difference between the provider's\nrecords and ours, into `available` or out of it, with a reason the\noperator recorded (the entry's `objectType` and `reference` name the\nobject it corrects). New types may be added; treat an unknown type by its\n`amount` and `balance`.\n"
  },
  "BalanceEntry": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "type",
      "balance",
      "amount",
      "currency",
      "objectType",
      "reference",
      "createdAt"
    ],
    "properties": {
      "id": {
        "type": "string",
        "pattern": "^[0-9]{1,19}$",
        "description": "The entry's id; later entries have larger ids."
      },
      "type": {
        "$ref": "#/components/schemas/BalanceEntryType"
      },
      "balance": {
        "type": "string",
        "enum": [
          "available",
          "pending",
          "held"
        ],
        "description": "The balance the entry moves money into (a positive `amount`) or out of (a negative one)."
      },
      "amount": {
        "type": "number",
        "description": "In major units, signed. Never zero."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "objectType": {
        "type": "string",
        "enum": [
          "payin",
          "payout",
          "refund",
          "settlement"
        ],
        "description": "The kind of object the entry is for. A settlement's money moves with the payout entry types (`payout_hold`, `payout_debit`, `payout_release`, `payout_reversal`), with `objectType` `settlement` and its id as `reference`."
      },
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "BalanceEntryList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/BalanceEntry"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean",
        "description": "Whether another page follows."
      },
      "nextCursor": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Cursor"
          },
          {
            "type": "null"
          }
        ],
        "description": "Pass as `cursor`, with the same currency, for the next page; `null` on the last page."
      }
    }
  },
  "EmptyRequest": {
    "type": "object",
    "additionalProperties": false,
    "maxProperties": 0,
    "description": "`{}`: the operation takes no fields, and a body keeps every signed POST alike."
  },
  "EnquiryId": {
    "type": "string",
    "pattern": "^enq_[A-Za-z0-9_-]{22}$",
    "description": "A successful account enquiry, as `enquiryId` names it; a payout is bound to one."
  },
  "PayoutStatus": {
    "type": "string",
    "enum": [
      "PENDING_APPROVAL",
      "BATCHED",
      "QUEUED",
      "PROCESSING",
      "SUCCESSFUL",
      "FAILED",
      "CANCELLED",
      "REVERSED"
    ],
    "description": "A payout is created `QUEUED`, with its amount and fee held; or\n`PENDING_APPROVAL` when the merchant's `payoutApproval` needs a second\ncredential to approve it; or, in a batch, `BATCHED` (or\n`PENDING_APPROVAL`) until the batch is submitted. It becomes\n`PROCESSING` when the service starts sending it, before the provider\nis asked, and leaves `PROCESSING` only on the provider's definitive\nanswer: `SUCCESSFUL` or `FAILED`. A payout not yet sent can be\n`CANCELLED` (`cancellationReason` says how). A `SUCCESSFUL` one can\nlater be `REVERSED` by the beneficiary's bank, and its money returns\nto `available`.\n",
    "x-transitions": {
      "PENDING_APPROVAL": [
        "QUEUED",
        "CANCELLED"
      ],
      "BATCHED": [
        "QUEUED",
        "CANCELLED"
      ],
      "QUEUED": [
        "PROCESSING",
        "CANCELLED"
      ],
      "PROCESSING": [
        "SUCCESSFUL",
        "FAILED"
      ],
      "SUCCESSFUL": [
        "REVERSED"
      ],
      "FAILED": [],
      "CANCELLED": [],
      "REVERSED": []
    }
  },
  "PayoutCancellationReason": {
    "type": "string",
    "enum": [
      "cancelled_by_merchant",
      "rejected",
      "approval_expired",
      "batch_cancelled",
      "batch_expired"
    ],
    "description": "Why a payout is `CANCELLED`: the merchant cancelled it, an approver\nrejected it, nobody approved it within `PAYOUT_APPROVAL_TTL_SECONDS`,\nor its batch was cancelled or expired unsubmitted\n(`PAYOUT_BATCH_TTL_SECONDS`). New reasons may be added.\n"
  },
  "PayoutApproval": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "status",
      "decidedBy",
      "decidedAt",
      "reason",
      "expiresAt"
    ],
    "description": "The approval a payout needed, and who decided it when. A batch's items are decided by the submission of their batch.",
    "properties": {
      "status": {
        "type": "string",
        "enum": [
          "pending",
          "approved",
          "rejected",
          "expired",
          "withdrawn"
        ],
        "description": "`withdrawn`: the payout was cancelled by the merchant, or with its batch, before anyone decided; `expired`: nobody decided in time."
      },
      "decidedBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The API key that approved or rejected it (for a batch item, the one that submitted the batch), or `dashboard:<email>` for a team member who approved it in the dashboard."
      },
      "decidedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "reason": {
        "type": [
          "string",
          "null"
        ],
        "description": "The reason given with a rejection."
      },
      "expiresAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When an undecided payout is cancelled with `approval_expired`; `null` for a batch item, which expires with its batch."
      }
    }
  },
  "PayoutFailureReason": {
    "type": "string",
    "enum": [
      "account_not_found",
      "account_dormant",
      "account_name_changed",
      "transfer_limit_exceeded",
      "beneficiary_bank_unavailable",
      "do_not_honor",
      "suspected_fraud",
      "provider_error",
      "reversed_by_beneficiary_bank"
    ],
    "description": "Why a payout is `FAILED` or `REVERSED`. `account_name_changed`: the\naccount's name at dispatch was not the enquired one, and nothing was\nsent. `transfer_limit_exceeded`: the beneficiary's account cannot\nreceive this much (a Tier-1 account takes at most ₦50,000).\n`reversed_by_beneficiary_bank`: the bank returned a payout it had\naccepted. New reasons may be added.\n"
  },
  "NameMatch": {
    "type": "string",
    "enum": [
      "exact",
      "partial",
      "not_checked"
    ],
    "description": "How `expectedAccountName` compared with the enquired name, after\nnormalisation (case, spaces, punctuation, accents and the order of\nthe names): `exact`, `partial` (every name of the shorter is in the\nlonger, or two names are shared), or `not_checked` when none was given.\n"
  },
  "CreatePayoutRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "amount",
      "currency",
      "enquiryId",
      "narration"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "amount": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1000000000,
        "description": "In naira, with at most 2 decimal places, such as `5000.50`; at\nleast `PAYOUT_MIN_AMOUNT` (₦100) and at most `PAYOUT_MAX_AMOUNT`.\nThe merchant's payout fee is held with it.\n"
      },
      "currency": {
        "type": "string",
        "enum": [
          "NGN"
        ]
      },
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      },
      "narration": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S",
        "description": "What the beneficiary's statement shows; at most 100 characters, as NIP allows."
      },
      "expectedAccountName": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S",
        "description": "The name you expect on the account; a payout whose enquired name does not match it is refused (`ACCOUNT_NAME_MISMATCH`)."
      },
      "notifyUrl": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048,
        "description": "https URL notified of the payout's outcome, as for payins; without it, the merchant's webhook endpoints that enable each event."
      },
      "batchReference": {
        "$ref": "#/components/schemas/Reference",
        "description": "An `OPEN` batch of the merchant to join. The payout holds its money at once, and waits (`BATCHED` or `PENDING_APPROVAL`) until the batch is submitted."
      }
    }
  },
  "Payout": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "merchantId",
      "status",
      "amount",
      "fee",
      "currency",
      "bankCode",
      "accountNumber",
      "accountName",
      "nameMatch",
      "narration",
      "enquiryId",
      "notifyUrl",
      "batchReference",
      "createdBy",
      "approval",
      "provider",
      "providerReference",
      "failureReason",
      "cancellationReason",
      "needsAttention",
      "nextStatusCheckAt",
      "version",
      "createdAt",
      "completedAt",
      "reversedAt"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "merchantId": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayoutStatus"
      },
      "amount": {
        "type": "number",
        "description": "In naira, as sent."
      },
      "fee": {
        "type": "number",
        "minimum": 0,
        "description": "In naira, the merchant's payout fee, held with the amount and taken when the payout succeeds."
      },
      "currency": {
        "type": "string",
        "enum": [
          "NGN"
        ]
      },
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "accountName": {
        "type": "string",
        "description": "The name the enquiry returned."
      },
      "nameMatch": {
        "$ref": "#/components/schemas/NameMatch"
      },
      "narration": {
        "type": "string"
      },
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      },
      "notifyUrl": {
        "type": [
          "string",
          "null"
        ]
      },
      "batchReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "The batch the payout belongs to, if any."
      },
      "createdBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The API key that created the payout, or `dashboard:<email>` for a team member who made it in the dashboard; neither can ever approve it. `null` for a payout created before keys were recorded."
      },
      "approval": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayoutApproval"
          },
          {
            "type": "null"
          }
        ],
        "description": "`null` when the payout needed no approval."
      },
      "provider": {
        "$ref": "#/components/schemas/ProviderOfRecord"
      },
      "providerReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "The reference the provider knows the transfer by, set when the payout became `PROCESSING`; every resend uses the same, at the same `provider`."
      },
      "failureReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayoutFailureReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "cancellationReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayoutCancellationReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "needsAttention": {
        "type": "boolean",
        "description": "The provider has given no definitive answer for 72 hours; an operator is looking into it. Never create a second payout for it."
      },
      "nextStatusCheckAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When the service next asks the provider about a `PROCESSING` payout."
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "completedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When it became `SUCCESSFUL`, `FAILED` or `CANCELLED`."
      },
      "reversedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "PayoutList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Payout"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean"
      },
      "nextCursor": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Cursor"
          },
          {
            "type": "null"
          }
        ]
      }
    }
  },
  "RejectPayoutRequest": {
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "reason": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "\\S",
        "description": "Why, kept on the payout and sent in its `payout.cancelled` event."
      }
    }
  },
  "PayoutBatchStatus": {
    "type": "string",
    "enum": [
      "OPEN",
      "SUBMITTED",
      "COMPLETED",
      "CANCELLED"
    ],
    "description": "A batch is created `OPEN`, and payouts join it while it is. Submitted\n(`SUBMITTED`), its payouts are sent; it is `COMPLETED` when every one\nis final. An `OPEN` batch can be `CANCELLED`, by the merchant or when\nit is not submitted within `PAYOUT_BATCH_TTL_SECONDS`, and every\npayout in it is cancelled with its hold released.\n",
    "x-transitions": {
      "OPEN": [
        "SUBMITTED",
        "CANCELLED"
      ],
      "SUBMITTED": [
        "COMPLETED"
      ],
      "COMPLETED": [],
      "CANCELLED": []
    }
  },
  "CreatePayoutBatchRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "title"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "title": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S",
        "description": "What the batch pays, such as `November payroll`."
      }
    }
  },
  "PayoutBatchList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/PayoutBatch"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean"
      },
      "nextCursor": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Cursor"
          },
          {
            "type": "null"
          }
        ]
      }
    }
  },
  "SubmitPayoutBatchRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "expectedCount",
      "expectedTotal"
    ],
    "properties": {
      "expectedCount": {
        "type": "integer",
        "minimum": 1,
        "maximum": 100000,
        "description": "How many payouts you added; a batch holding another number is not submitted (`PAYOUT_BATCH_MISMATCH`)."
      },
      "expectedTotal": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 10000000000000,
        "description": "The sum of their amounts in naira, fees left out, with at most 2 decimal places."
      }
    }
  },
  "PayoutBatchStatusTotal": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "status",
      "count",
      "amount",
      "fees"
    ],
    "properties": {
      "status": {
        "$ref": "#/components/schemas/PayoutStatus"
      },
      "count": {
        "type": "integer",
        "minimum": 1
      },
      "amount": {
        "type": "number",
        "description": "The sum of their amounts in naira, fees left out."
      },
      "fees": {
        "type": "number",
        "description": "The sum of their payout fees in naira (held with them, taken when they succeed, returned otherwise)."
      }
    }
  },
  "PayoutBatch": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "merchantId",
      "title",
      "status",
      "itemCount",
      "total",
      "fees",
      "byStatus",
      "approvalRequired",
      "createdBy",
      "submittedBy",
      "cancellationReason",
      "version",
      "createdAt",
      "expiresAt",
      "submittedAt",
      "completedAt",
      "cancelledAt"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "merchantId": {
        "type": "string"
      },
      "title": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayoutBatchStatus"
      },
      "itemCount": {
        "type": "integer",
        "minimum": 0,
        "description": "Payouts in the batch, in any status."
      },
      "total": {
        "type": "number",
        "description": "The sum of their amounts in naira, fees left out."
      },
      "fees": {
        "type": "number",
        "description": "The sum of their payout fees in naira, over the same payouts as `total`."
      },
      "byStatus": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/PayoutBatchStatusTotal"
        },
        "description": "Count and total of the payouts in each status the batch has, in the order of `PayoutStatus`."
      },
      "approvalRequired": {
        "type": "boolean",
        "description": "Whether its payouts need approval (every batch of a merchant with approval on), so that only a credential with `payouts:approve` that created none of them can submit it."
      },
      "createdBy": {
        "type": "string",
        "description": "The API key that created the batch, or `dashboard:<email>` for a team member who made it in the dashboard."
      },
      "submittedBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The API key that submitted it, or `dashboard:<email>` for a team member who approved it in the dashboard."
      },
      "cancellationReason": {
        "oneOf": [
          {
            "type": "string",
            "enum": [
              "cancelled_by_merchant",
              "batch_expired"
            ]
          },
          {
            "type": "null"
          }
        ]
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "expiresAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When an `OPEN` batch is cancelled if not submitted; `null` once it is not `OPEN`."
      },
      "submittedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "completedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When its last payout became final."
      },
      "cancelledAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "SimulatePayoutRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "outcome"
    ],
    "properties": {
      "outcome": {
        "type": "string",
        "enum": [
          "successful",
          "failed",
          "reversed"
        ]
      },
      "reason": {
        "$ref": "#/components/schemas/PayoutFailureReason",
        "description": "With `failed` (`provider_error` when absent) or `reversed` (`reversed_by_beneficiary_bank` when absent)."
      }
    }
  },
  "PayoutEventType": {
    "type": "string",
    "enum": [
      "payout.approval_required",
      "payout.successful",
      "payout.failed",
      "payout.reversed",
      "payout.cancelled"
    ]
  },
  "PayoutEvent": {
    "description": "A payout's webhook event body; `type` says what happened, `version` which version of the payout `data` is.",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/PayoutEventType"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the payout changed; every attempt of the event carries the same."
      },
      "data": {
        "$ref": "#/components/schemas/Payout"
      }
    }
  },
  "PayoutBatchEventType": {
    "type": "string",
    "enum": [
      "payout_batch.completed"
    ]
  },
  "PayoutBatchEvent": {
    "description": "A payout batch's webhook event body; `data` is the batch, with its counts and totals by status.",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/PayoutBatchEventType"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the batch changed; every attempt of the event carries the same."
      },
      "data": {
        "$ref": "#/components/schemas/PayoutBatch"
      }
    }
  },
  "RefundStatus": {
    "type": "string",
    "enum": [
      "PENDING",
      "PROCESSING",
      "REQUIRES_ACTION",
      "SUCCESSFUL",
      "FAILED",
      "CANCELLED"
    ],
    "description": "A refund is created `PENDING`, its amount held. It becomes\n`PROCESSING` when the service sends it to the payin's provider,\nrecorded before the provider is asked, and leaves `PROCESSING` only\non the provider's definitive answer: `SUCCESSFUL` (the money is on\nits way back to the customer) or `FAILED` (the hold is released).\n`REQUIRES_ACTION`: the provider cannot return the money the way the\ncustomer paid; give the customer's bank account (`/account`) and it\nis `PROCESSING` again. The provider may also settle it without one\n(`SUCCESSFUL` or `FAILED`), and the service keeps asking it, less\noften, while it waits. Only a `PENDING` refund can be `CANCELLED`.\nNew states may be added; treat an unknown one as not final.\n",
    "x-transitions": {
      "PENDING": [
        "PROCESSING",
        "CANCELLED"
      ],
      "PROCESSING": [
        "SUCCESSFUL",
        "FAILED",
        "REQUIRES_ACTION"
      ],
      "REQUIRES_ACTION": [
        "PROCESSING",
        "SUCCESSFUL",
        "FAILED"
      ],
      "SUCCESSFUL": [],
      "FAILED": [],
      "CANCELLED": []
    }
  },
  "RefundReason": {
    "type": "string",
    "enum": [
      "duplicate",
      "fraudulent",
      "requested_by_customer",
      "other"
    ],
    "description": "Why the merchant refunds the payin, for its records and the provider's."
  },
  "RefundFailureReason": {
    "type": "string",
    "enum": [
      "declined_by_provider",
      "account_not_found",
      "provider_error"
    ],
    "description": "Why a refund is `FAILED`: the provider refused it\n(`declined_by_provider`), the customer's bank account given with\n`/account` does not exist (`account_not_found`), or the provider\nfailed it for a reason of its own (`provider_error`). Its hold is\nreleased either way. New reasons may be added.\n"
  },
  "RefundFunding": {
    "type": "string",
    "enum": [
      "pending",
      "available"
    ],
    "description": "The balance the refund's hold was drawn from: `pending` while the\npayin's own credit was not yet settled and covered it, else\n`available`. A release returns it there, or to `available` once the\npayin has settled.\n"
  },
  "DisplayNote": {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "pattern": "\\S",
    "description": "Free text of at most 200 characters, shown as given."
  },
  "CreateRefundRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "payinReference"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "payinReference": {
        "$ref": "#/components/schemas/Reference",
        "description": "The `SUCCESSFUL` payin to refund."
      },
      "amount": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1000000000,
        "description": "In major units, with at most 2 decimal places, as the payin's `amount`; left out, everything not yet refunded or in flight."
      },
      "reason": {
        "$ref": "#/components/schemas/RefundReason"
      },
      "merchantNote": {
        "$ref": "#/components/schemas/DisplayNote",
        "description": "For the merchant's records; never shown to the customer."
      },
      "customerNote": {
        "$ref": "#/components/schemas/DisplayNote",
        "description": "Passed to the provider, which may show it to the customer."
      },
      "notifyUrl": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048,
        "description": "https URL notified of the refund's changes, as for payins; without it, the merchant's webhook endpoints that enable each event."
      }
    }
  },
  "SetRefundAccountRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "enquiryId"
    ],
    "properties": {
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      }
    }
  },
  "RefundAccount": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "bankCode",
      "accountNumber",
      "accountName",
      "enquiryId"
    ],
    "description": "The customer's bank account a `REQUIRES_ACTION` refund is sent to, from the enquiry given with `/account`.",
    "properties": {
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "accountName": {
        "type": "string"
      },
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      }
    }
  },
  "Refund": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "merchantId",
      "payinReference",
      "status",
      "amount",
      "currency",
      "reason",
      "merchantNote",
      "customerNote",
      "notifyUrl",
      "fundedFrom",
      "feeReturned",
      "provider",
      "providerReference",
      "account",
      "failureReason",
      "needsAttention",
      "nextStatusCheckAt",
      "version",
      "createdAt",
      "processingAt",
      "completedAt"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "merchantId": {
        "type": "string"
      },
      "payinReference": {
        "$ref": "#/components/schemas/Reference"
      },
      "status": {
        "$ref": "#/components/schemas/RefundStatus"
      },
      "amount": {
        "type": "number",
        "description": "In major units."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "reason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/RefundReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "merchantNote": {
        "type": [
          "string",
          "null"
        ]
      },
      "customerNote": {
        "type": [
          "string",
          "null"
        ]
      },
      "notifyUrl": {
        "type": [
          "string",
          "null"
        ]
      },
      "fundedFrom": {
        "$ref": "#/components/schemas/RefundFunding"
      },
      "feeReturned": {
        "type": "number",
        "minimum": 0,
        "description": "In major units, the share of the payin's fee given back to the merchant when the refund succeeds; 0 unless the merchant's fees return it (`refundReturnsFee`)."
      },
      "provider": {
        "$ref": "#/components/schemas/ProviderOfRecord",
        "description": "The payin's provider, the only one the refund is ever sent to."
      },
      "providerReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "The reference the provider knows the refund by, set when it became `PROCESSING`; every resend and status check uses it."
      },
      "account": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/RefundAccount"
          },
          {
            "type": "null"
          }
        ]
      },
      "failureReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/RefundFailureReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "needsAttention": {
        "type": "boolean",
        "description": "The provider has given no definitive answer for 72 hours, or reported another amount; an operator is looking into it. Never create a second refund for it."
      },
      "nextStatusCheckAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When the service next asks the provider about a `PROCESSING` refund."
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "processingAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When it was first sent to the provider."
      },
      "completedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When it became `SUCCESSFUL`, `FAILED` or `CANCELLED`."
      }
    }
  },
  "RefundList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Refund"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean"
      },
      "nextCursor": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Cursor"
          },
          {
            "type": "null"
          }
        ]
      }
    }
  },
  "SimulateRefundRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "outcome"
    ],
    "properties": {
      "outcome": {
        "type": "string",
        "enum": [
          "successful",
          "failed",
          "requires_action"
        ]
      },
      "reason": {
        "$ref": "#/components/schemas/RefundFailureReason",
        "description": "With `failed` only (`declined_by_provider` when absent)."
      }
    }
  },
  "RefundEventType": {
    "type": "string",
    "enum": [
      "refund.pending",
      "refund.processing",
      "refund.successful",
      "refund.failed",
      "refund.requires_action",
      "refund.cancelled"
    ]
  },
  "RefundEvent": {
    "description": "A refund's webhook event body, one for every state it enters; `version` says which version of the refund `data` is.",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/RefundEventType"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the refund changed; every attempt of the event carries the same."
      },
      "data": {
        "$ref": "#/components/schemas/Refund"
      }
    }
  },
  "SettlementId": {
    "type": "string",
    "pattern": "^stl_[A-Za-z0-9]{22}$",
    "description": "A settlement's id, also in the narration of the bank transfer that pays it, so that the merchant's bank statement names it."
  },
  "SettlementBankAccount": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "bankCode",
      "accountNumber",
      "accountName",
      "enquiryId"
    ],
    "description": "A bank account of the merchant's own, from one of its account enquiries.",
    "properties": {
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "accountName": {
        "type": "string"
      },
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      }
    }
  },
  "SettlementAccountInForce": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "account",
      "inForceSince"
    ],
    "properties": {
      "account": {
        "$ref": "#/components/schemas/SettlementBankAccount"
      },
      "inForceSince": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "SettlementAccountChange": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "account",
      "requestedAt",
      "effectiveAt"
    ],
    "properties": {
      "account": {
        "$ref": "#/components/schemas/SettlementBankAccount"
      },
      "requestedAt": {
        "type": "string",
        "format": "date-time"
      },
      "effectiveAt": {
        "type": "string",
        "format": "date-time",
        "description": "When the change will be in force, unless cancelled before."
      }
    }
  },
  "SettlementAccountState": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "current",
      "pending"
    ],
    "properties": {
      "current": {
        "description": "The account settlements are paid to now; `null` until one is in force.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/SettlementAccountInForce"
          },
          {
            "type": "null"
          }
        ]
      },
      "pending": {
        "description": "A change waiting for its delay; `null` when none is.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/SettlementAccountChange"
          },
          {
            "type": "null"
          }
        ]
      }
    }
  },
  "SetSettlementAccountRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "enquiryId"
    ],
    "properties": {
      "enquiryId": {
        "$ref": "#/components/schemas/EnquiryId"
      }
    }
  },
  "SettlementInterval": {
    "type": "string",
    "enum": [
      "daily",
      "weekly",
      "manual"
    ]
  },
  "Weekday": {
    "type": "string",
    "enum": [
      "monday",
      "tuesday",
      "wednesday",
      "thursday",
      "friday",
      "saturday",
      "sunday"
    ]
  },
  "SetSettlementScheduleRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "interval",
      "minimumAmount"
    ],
    "properties": {
      "interval": {
        "$ref": "#/components/schemas/SettlementInterval"
      },
      "minimumAmount": {
        "type": "number",
        "minimum": 0,
        "maximum": 1000000000,
        "description": "In major units, with at most two decimals. A run settles nothing while `available` is below it; 0 settles any balance above nothing."
      },
      "weekday": {
        "$ref": "#/components/schemas/Weekday",
        "description": "With `weekly` only, and required with it."
      }
    }
  },
  "SettlementSchedule": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "interval",
      "minimumAmount",
      "weekday",
      "runHourUtc",
      "paused",
      "pausedBy",
      "nextRunAt"
    ],
    "properties": {
      "interval": {
        "$ref": "#/components/schemas/SettlementInterval"
      },
      "minimumAmount": {
        "type": "number"
      },
      "weekday": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Weekday"
          },
          {
            "type": "null"
          }
        ]
      },
      "runHourUtc": {
        "type": "integer",
        "minimum": 0,
        "maximum": 23,
        "description": "The hour (UTC) runs of the schedule start at (`SETTLEMENT_RUN_HOUR_UTC`)."
      },
      "paused": {
        "type": "boolean",
        "description": "A settlement failed, and no run settles until a new account is in force or the schedule is set again."
      },
      "pausedBy": {
        "description": "The failed settlement that paused the schedule; `null` when it is not paused.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/SettlementId"
          },
          {
            "type": "null"
          }
        ]
      },
      "nextRunAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "The next run of the schedule; `null` for `manual`, or while paused or without a settlement account."
      }
    }
  },
  "SettlementStatus": {
    "type": "string",
    "enum": [
      "PENDING",
      "PROCESSING",
      "PAID",
      "FAILED",
      "REVERSED"
    ],
    "description": "`PENDING`: created, its money held from `available`, waiting to be\nsent. `PROCESSING`: sent to the provider. `PAID`: the provider paid it\nto the account. `FAILED`: it was not paid; its money is back in\n`available` and the schedule is paused. `REVERSED`: paid, then\nreturned by the bank; its money is back in `available`.\n",
    "x-transitions": {
      "PENDING": [
        "PROCESSING",
        "FAILED"
      ],
      "PROCESSING": [
        "PAID",
        "FAILED"
      ],
      "PAID": [
        "REVERSED"
      ],
      "FAILED": [],
      "REVERSED": []
    }
  },
  "Settlement": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "merchantId",
      "status",
      "amount",
      "currency",
      "trigger",
      "account",
      "narration",
      "provider",
      "providerReference",
      "failureReason",
      "needsAttention",
      "version",
      "createdAt",
      "processingAt",
      "completedAt",
      "reversedAt"
    ],
    "properties": {
      "id": {
        "$ref": "#/components/schemas/SettlementId"
      },
      "merchantId": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/SettlementStatus"
      },
      "amount": {
        "type": "number",
        "description": "In major units; the sum of the entries it covered (`/entries`)."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "trigger": {
        "type": "string",
        "enum": [
          "schedule",
          "manual"
        ],
        "description": "Made by a run of the schedule, or by `POST /payment/api/settlements`."
      },
      "account": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "bankCode",
          "accountNumber",
          "accountName"
        ],
        "description": "The settlement account in force when it was made.",
        "properties": {
          "bankCode": {
            "type": "string"
          },
          "accountNumber": {
            "type": "string"
          },
          "accountName": {
            "type": "string"
          }
        }
      },
      "narration": {
        "type": "string",
        "description": "The transfer's narration on the merchant's bank statement; it carries the settlement's id."
      },
      "provider": {
        "$ref": "#/components/schemas/ProviderOfRecord"
      },
      "providerReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "The reference the provider knows the transfer by, set when it became `PROCESSING`."
      },
      "failureReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayoutFailureReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "needsAttention": {
        "type": "boolean",
        "description": "The provider has given no definitive answer for 72 hours; an operator is looking into it."
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "processingAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "completedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When it became `PAID` or `FAILED`."
      },
      "reversedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "SettlementList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Settlement"
        },
        "description": "Newest first."
      },
      "hasMore": {
        "type": "boolean"
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ]
      }
    }
  },
  "CreateSettlementRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "currency"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference",
        "description": "Your reference for this request, its idempotency key: the same again answers the settlement it made, with `Idempotent-Replayed: true`."
      },
      "currency": {
        "type": "string",
        "enum": [
          "NGN"
        ],
        "description": "The currency to settle; only NGN settles."
      }
    }
  },
  "SettlementEventType": {
    "type": "string",
    "enum": [
      "settlement.created",
      "settlement.paid",
      "settlement.failed",
      "settlement.reversed"
    ],
    "description": "`settlement.failed` also means the schedule is paused until a new\nsettlement account is in force or the schedule is set again.\n"
  },
  "SettlementEvent": {
    "description": "A settlement's webhook event body; `version` says which version of the settlement `data` is.",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "$ref": "#/components/schemas/SettlementEventType"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the settlement changed; every attempt of the event carries the same."
      },
      "data": {
        "$ref": "#/components/schemas/Settlement"
      }
    }
  },
  "SettlementAccountChangedEvent": {
    "description": "A change of settlement account: asked for (`requested`), in force\n(`in_force`), or cancelled before it was (`cancelled`). A\n`requested` change nobody on the merchant's side asked for is how an\naccount takeover starts: cancel it.\n",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "enum": [
          "settlement_account.changed"
        ]
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time"
      },
      "data": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "phase",
          "account",
          "previousAccount",
          "requestedAt",
          "effectiveAt"
        ],
        "properties": {
          "phase": {
            "type": "string",
            "enum": [
              "requested",
              "in_force",
              "cancelled"
            ]
          },
          "account": {
            "$ref": "#/components/schemas/SettlementBankAccount"
          },
          "previousAccount": {
            "description": "The account in force before; `null` for the first.",
            "oneOf": [
              {
                "$ref": "#/components/schemas/SettlementBankAccount"
              },
              {
                "type": "null"
              }
            ]
          },
          "requestedAt": {
            "type": "string",
            "format": "date-time"
          },
          "effectiveAt": {
            "type": "string",
            "format": "date-time"
          }
        }
      }
    }
  },
  "WebhookEventType": {
    "type": "string",
    "enum": [
      "payin.successful",
      "payin.failed",
      "payin.abandoned",
      "payin.cancelled",
      "payin.attempt_failed",
      "payout.approval_required",
      "payout.successful",
      "payout.failed",
      "payout.reversed",
      "payout.cancelled",
      "payout_batch.completed",
      "refund.pending",
      "refund.processing",
      "refund.successful",
      "refund.failed",
      "refund.requires_action",
      "refund.cancelled",
      "settlement.created",
      "settlement.paid",
      "settlement.failed",
      "settlement.reversed",
      "settlement_account.changed"
    ],
    "description": "The type of any webhook event, a payin's, a payout's (`PayoutEventType`), a payout batch's (`PayoutBatchEventType`), a refund's (`RefundEventType`), a settlement's (`SettlementEventType`) or a settlement account's."
  },
  "WebhookEvent": {
    "description": "Any webhook event body, of a payin, a payout, a payout batch or a refund; `type` says which.",
    "oneOf": [
      {
        "$ref": "#/components/schemas/PayinEvent"
      },
      {
        "$ref": "#/components/schemas/PayoutEvent"
      },
      {
        "$ref": "#/components/schemas/PayoutBatchEvent"
      },
      {
        "$ref": "#/components/schemas/RefundEvent"
      },
      {
        "$ref": "#/components/schemas/SettlementEvent"
      },
      {
        "$ref": "#/components/schemas/SettlementAccountChangedEvent"
      }
    ]
  },
  "SimulatePayinRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "outcome"
    ],
    "properties": {
      "outcome": {
        "type": "string",
        "enum": [
          "successful",
          "failed",
          "abandoned",
          "cancelled",
          "declined"
        ],
        "description": "The final state to drive the payin to, or `declined` to record a declined attempt."
      },
      "failureReason": {
        "$ref": "#/components/schemas/DeclineReason",
        "description": "With `outcome` `failed` or `declined` only. When absent, `card_declined`; for `declined` on a payin whose `gateway` is `bank_transfer` or `ussd`, `transfer_not_received`."
      }
    }
  },
  "EventId": {
    "type": "string",
    "pattern": "^evt_[A-Za-z0-9_-]{22}$",
    "description": "An event's id, sent as its `webhook-id`."
  },
  "PayinSuccessfulEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "const": "payin.successful"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the payin became final; every attempt of the event carries the same."
      },
      "data": {
        "$ref": "#/components/schemas/Payin"
      }
    }
  },
  "PayinFailedEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "const": "payin.failed"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time"
      },
      "data": {
        "$ref": "#/components/schemas/Payin"
      }
    }
  },
  "PayinAbandonedEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "const": "payin.abandoned"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time"
      },
      "data": {
        "$ref": "#/components/schemas/Payin"
      }
    }
  },
  "PayinCancelledEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "const": "payin.cancelled"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time"
      },
      "data": {
        "$ref": "#/components/schemas/Payin"
      }
    }
  },
  "PayinAttemptFailedEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "version",
      "timestamp",
      "data"
    ],
    "properties": {
      "type": {
        "type": "string",
        "const": "payin.attempt_failed"
      },
      "version": {
        "$ref": "#/components/schemas/ObjectVersion"
      },
      "timestamp": {
        "type": "string",
        "format": "date-time",
        "description": "When the attempt was declined."
      },
      "data": {
        "$ref": "#/components/schemas/Payin"
      }
    }
  },
  "ObjectVersion": {
    "type": "integer",
    "minimum": 1,
    "description": "The version of the object (`data`) this event reports: 1 when it was\ncreated, one more with each change. Events can arrive out of order;\na receiver that has seen a higher version of the object ignores a lower one.\n"
  },
  "PayinEvent": {
    "description": "Any webhook event body; `type` says which.",
    "oneOf": [
      {
        "$ref": "#/components/schemas/PayinSuccessfulEvent"
      },
      {
        "$ref": "#/components/schemas/PayinFailedEvent"
      },
      {
        "$ref": "#/components/schemas/PayinAbandonedEvent"
      },
      {
        "$ref": "#/components/schemas/PayinCancelledEvent"
      },
      {
        "$ref": "#/components/schemas/PayinAttemptFailedEvent"
      }
    ],
    "discriminator": {
      "propertyName": "type",
      "mapping": {
        "payin.successful": "#/components/schemas/PayinSuccessfulEvent",
        "payin.failed": "#/components/schemas/PayinFailedEvent",
        "payin.abandoned": "#/components/schemas/PayinAbandonedEvent",
        "payin.cancelled": "#/components/schemas/PayinCancelledEvent",
        "payin.attempt_failed": "#/components/schemas/PayinAttemptFailedEvent"
      }
    }
  },
  "DeliveryAttempt": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "attempt",
      "startedAt",
      "durationMs",
      "statusCode",
      "error",
      "responseBody",
      "nextAttemptAt"
    ],
    "properties": {
      "attempt": {
        "type": "integer",
        "minimum": 1
      },
      "startedAt": {
        "type": "string",
        "format": "date-time"
      },
      "durationMs": {
        "type": "integer",
        "minimum": 0
      },
      "statusCode": {
        "type": [
          "integer",
          "null"
        ],
        "description": "The receiver's HTTP status; `null` when no answer came."
      },
      "error": {
        "type": [
          "string",
          "null"
        ],
        "description": "Why the attempt failed without an answer (refused address, DNS, connection, timeout), or `null`."
      },
      "responseBody": {
        "type": [
          "string",
          "null"
        ],
        "description": "The first bytes of the receiver's answer (1 KiB by default), for debugging."
      },
      "nextAttemptAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When the next attempt was scheduled after this one; `null` when none was."
      }
    }
  },
  "EventDeliveryLog": {
    "description": "One event sent to your webhook endpoint, with the log of its delivery:\nwhere it goes, where it stands, every attempt, and the body sent.\n",
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "type",
      "reference",
      "notifyUrl",
      "createdAt",
      "status",
      "nextAttemptAt",
      "attempts",
      "payload"
    ],
    "properties": {
      "id": {
        "$ref": "#/components/schemas/EventId"
      },
      "type": {
        "$ref": "#/components/schemas/WebhookEventType"
      },
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "notifyUrl": {
        "type": "string"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "status": {
        "type": "string",
        "enum": [
          "pending",
          "delivered",
          "failed"
        ],
        "description": "`pending` while attempts remain, `delivered` once a 2xx came back,\n`failed` when the schedule ran out or the receiver answered 410.\n"
      },
      "nextAttemptAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "attempts": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/DeliveryAttempt"
        }
      },
      "payload": {
        "$ref": "#/components/schemas/WebhookEvent",
        "description": "The body every attempt sends, byte for byte as this JSON."
      }
    }
  },
  "EventDeliveryLogList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/EventDeliveryLog"
        },
        "description": "Oldest first."
      }
    }
  },
  "WebhookEndpointId": {
    "type": "string",
    "pattern": "^we_[A-Za-z0-9_-]{22}$",
    "description": "A webhook endpoint's id, `we_` and 128 random bits in base64url."
  },
  "WebhookEndpointUrl": {
    "type": "string",
    "format": "uri",
    "maxLength": 2048,
    "description": "The https URL the endpoint's events are sent to; http is accepted in\nsandbox mode only. Checked as a payin's `notifyUrl` is: normalised\nto its WHATWG form as `redirectUrl` is, and refused on the same forms\n(`unsafe_url`), and refused (`target`) when webhooks are never sent\nthere, such as a loopback or private address. Every attempt checks\nthe address again (docs/webhooks.md, \"Where webhooks may go\").\n"
  },
  "WebhookEventSelection": {
    "type": "string",
    "minLength": 1,
    "maxLength": 2048,
    "pattern": "^(\\*|[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+){0,63})$",
    "description": "The event types the endpoint receives, separated by commas without\nspaces: 1 to 64 distinct `WebhookEventType` values, such as\n`payin.successful,refund.failed`, or `*` alone for every type, those\nadded later included. A string rather than an array because a signed\nbody holds only flat fields (an array is refused with `NESTED_VALUE`,\ndocs/protocol.md section 2); the endpoint answers the list as an\narray, `enabledEvents`. An unknown type, a type given twice, or `*`\nbeside a type is refused (`VALIDATION_FAILED`).\n",
    "example": "payin.successful,refund.successful,refund.failed"
  },
  "EnabledWebhookEvents": {
    "type": "array",
    "minItems": 1,
    "maxItems": 64,
    "uniqueItems": true,
    "items": {
      "oneOf": [
        {
          "$ref": "#/components/schemas/WebhookEventType"
        },
        {
          "type": "string",
          "const": "*"
        }
      ]
    },
    "description": "The event types the endpoint receives, in the order given, or `[\"*\"]` for every type, those added later included."
  },
  "WebhookEndpointStatus": {
    "type": "string",
    "enum": [
      "enabled",
      "disabled"
    ],
    "description": "`enabled`: new events of its types are sent to it. `disabled`: none\nare, until it is enabled again; events already queued for it keep\ntheir schedule.\n"
  },
  "WebhookEndpointSecretSummary": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "fingerprint",
      "createdAt",
      "expiresAt"
    ],
    "description": "One live secret of an endpoint, told by its fingerprint. The secret itself is shown only in the answer that made it.",
    "properties": {
      "fingerprint": {
        "type": "string",
        "pattern": "^[0-9a-f]{12}$",
        "description": "The first 12 hex digits of the SHA-256 of the whole secret, `whsec_` included, as UTF-8 (`printf %s \"$SECRET\" | sha256sum | cut -c1-12`), to tell which secret a receiver holds."
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "expiresAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When it stops signing, set by the roll that replaced it; `null` for the newest secret."
      }
    }
  },
  "WebhookSecret": {
    "type": "string",
    "pattern": "^whsec_[A-Za-z0-9+/]{43}=$",
    "description": "`whsec_` and the base64 of 32 random bytes, the Standard Webhooks\nform: give it to your receiver's verifier (the SDK's `verifyWebhook`,\nor any Standard Webhooks library). Shown only in the answer of the\ncreate or the roll that made it; the service keeps it to sign, and\nnever shows it again.\n"
  },
  "WebhookEndpoint": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "url",
      "enabledEvents",
      "description",
      "status",
      "secrets",
      "createdAt",
      "updatedAt"
    ],
    "description": "A URL that receives the merchant's events of the types it enables, signed with its own secrets. It never holds a secret, only their fingerprints.",
    "properties": {
      "id": {
        "$ref": "#/components/schemas/WebhookEndpointId"
      },
      "url": {
        "$ref": "#/components/schemas/WebhookEndpointUrl"
      },
      "enabledEvents": {
        "$ref": "#/components/schemas/EnabledWebhookEvents"
      },
      "description": {
        "type": [
          "string",
          "null"
        ],
        "description": "For your records, shown as given; never sent to the endpoint."
      },
      "status": {
        "$ref": "#/components/schemas/WebhookEndpointStatus"
      },
      "secrets": {
        "type": "array",
        "minItems": 1,
        "maxItems": 2,
        "items": {
          "$ref": "#/components/schemas/WebhookEndpointSecretSummary"
        },
        "description": "Its live secrets, newest first, one, or two during a roll. Every delivery to the endpoint carries a signature by each."
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "updatedAt": {
        "type": "string",
        "format": "date-time",
        "description": "When it last changed, a roll of its secret included."
      }
    }
  },
  "WebhookEndpointWithSecret": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "url",
      "enabledEvents",
      "description",
      "status",
      "secrets",
      "createdAt",
      "updatedAt",
      "secret"
    ],
    "description": "A `WebhookEndpoint` with the `secret` just made, the newest of `secrets`. Answered by create and roll-secret only.",
    "properties": {
      "id": {
        "$ref": "#/components/schemas/WebhookEndpointId"
      },
      "url": {
        "$ref": "#/components/schemas/WebhookEndpointUrl"
      },
      "enabledEvents": {
        "$ref": "#/components/schemas/EnabledWebhookEvents"
      },
      "description": {
        "type": [
          "string",
          "null"
        ],
        "description": "For your records, shown as given; never sent to the endpoint."
      },
      "status": {
        "$ref": "#/components/schemas/WebhookEndpointStatus"
      },
      "secrets": {
        "type": "array",
        "minItems": 1,
        "maxItems": 2,
        "items": {
          "$ref": "#/components/schemas/WebhookEndpointSecretSummary"
        },
        "description": "Its live secrets, newest first, one, or two during a roll. Every delivery to the endpoint carries a signature by each."
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "updatedAt": {
        "type": "string",
        "format": "date-time",
        "description": "When it last changed, a roll of its secret included."
      },
      "secret": {
        "$ref": "#/components/schemas/WebhookSecret"
      }
    }
  },
  "WebhookEndpointList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/WebhookEndpoint"
        },
        "description": "Oldest first."
      }
    }
  },
  "DeletedWebhookEndpoint": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "deleted"
    ],
    "properties": {
      "id": {
        "$ref": "#/components/schemas/WebhookEndpointId"
      },
      "deleted": {
        "type": "boolean",
        "const": true
      }
    }
  },
  "CreateWebhookEndpointRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "url",
      "enabledEvents"
    ],
    "properties": {
      "url": {
        "$ref": "#/components/schemas/WebhookEndpointUrl"
      },
      "enabledEvents": {
        "$ref": "#/components/schemas/WebhookEventSelection"
      },
      "description": {
        "$ref": "#/components/schemas/DisplayNote",
        "description": "For your records, shown as given; never sent to the endpoint."
      },
      "enabled": {
        "type": "boolean",
        "description": "`false` creates it `disabled`: it receives nothing until enabled. Left out, `true`."
      }
    }
  },
  "UpdateWebhookEndpointRequest": {
    "type": "object",
    "additionalProperties": false,
    "minProperties": 1,
    "description": "The fields to change, at least one; those left out keep their value.",
    "properties": {
      "url": {
        "$ref": "#/components/schemas/WebhookEndpointUrl"
      },
      "enabledEvents": {
        "$ref": "#/components/schemas/WebhookEventSelection",
        "description": "Replaces the whole list."
      },
      "description": {
        "description": "The new description; an empty string removes it.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/DisplayNote"
          },
          {
            "type": "string",
            "const": ""
          }
        ]
      },
      "enabled": {
        "type": "boolean",
        "description": "`false` disables the endpoint, `true` enables it."
      }
    }
  },
  "RollWebhookEndpointSecretRequest": {
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "expiresIn": {
        "type": "integer",
        "minimum": 0,
        "maximum": 604800,
        "description": "Seconds the previous secret keeps signing beside the new one, at most 604800 (7 days); `0` ends it at once. 86400 (a day) when left out."
      }
    }
  },
  "CheckoutToken": {
    "type": "string",
    "pattern": "^[A-Za-z0-9_-]{43}$",
    "description": "256 random-looking bits, base64url. The service stores only its SHA-256."
  },
  "CheckoutSubmission": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "csrf",
      "action"
    ],
    "properties": {
      "csrf": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{43}$",
        "description": "The per-page token from the form; the HMAC of the `paysign_checkout_csrf` cookie for this checkout."
      },
      "action": {
        "type": "string",
        "enum": [
          "pay_card",
          "confirm_transfer",
          "confirm_ussd",
          "cancel"
        ]
      },
      "cardNumber": {
        "type": "string",
        "maxLength": 32,
        "description": "With `pay_card`. Digits, spaces allowed."
      },
      "cardExpiry": {
        "type": "string",
        "maxLength": 7,
        "description": "With `pay_card`. `MM/YY`."
      },
      "cardCvc": {
        "type": "string",
        "maxLength": 4,
        "description": "With `pay_card`. 3 or 4 digits."
      }
    }
  },
  "ProviderOfRecord": {
    "type": [
      "string",
      "null"
    ],
    "pattern": "^[a-z][a-z0-9-]{0,31}$",
    "description": "The provider that handled the object, such as `sandbox` or\n`paystack`: the one that takes a payin (fixed at creation), or the\none a payout was sent through (set when it became `PROCESSING`,\n`null` before). Every later check of the object goes to this\nprovider, even after the service has selected another for new\nobjects. More providers may be added: treat an unknown value as a\nname, not an error. `null` also for an object that was already final\nwhen providers began to be recorded.\n"
  },
  "Payin": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "merchantId",
      "status",
      "amount",
      "fee",
      "amountRefunded",
      "amountRefundable",
      "currency",
      "customerEmail",
      "customerName",
      "gateway",
      "provider",
      "narration",
      "notifyUrl",
      "redirectUrl",
      "checkoutUrl",
      "createdAt",
      "expiresAt",
      "paidAt",
      "failedAt",
      "failureReason",
      "needsAttention",
      "attempts"
    ],
    "properties": {
      "reference": {
        "$ref": "#/components/schemas/Reference"
      },
      "merchantId": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayinStatus"
      },
      "amount": {
        "type": "number",
        "description": "In major units."
      },
      "fee": {
        "type": [
          "number",
          "null"
        ],
        "minimum": 0,
        "description": "In major units: the merchant's fee on this payin, taken from the\namount credited to its balance when the payin succeeded; `null`\nuntil then. A percentage of the amount with a cap, per merchant.\n"
      },
      "amountRefunded": {
        "type": "number",
        "minimum": 0,
        "description": "In major units, what the payin's `SUCCESSFUL` refunds returned to the customer. Its `status` stays `SUCCESSFUL` however much is refunded."
      },
      "amountRefundable": {
        "type": "number",
        "minimum": 0,
        "description": "In major units, what can still be refunded now; refunds in flight are already taken from it. 0 for a payin that is not `SUCCESSFUL`."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "customerEmail": {
        "type": "string"
      },
      "customerName": {
        "type": [
          "string",
          "null"
        ]
      },
      "gateway": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayinChannel"
          },
          {
            "type": "null"
          }
        ]
      },
      "provider": {
        "$ref": "#/components/schemas/ProviderOfRecord"
      },
      "narration": {
        "type": [
          "string",
          "null"
        ]
      },
      "notifyUrl": {
        "type": [
          "string",
          "null"
        ],
        "description": "As sent at creation, normalised (see `CreatePayinRequest`)."
      },
      "redirectUrl": {
        "type": [
          "string",
          "null"
        ],
        "description": "As sent at creation, normalised (see `CreatePayinRequest`)."
      },
      "checkoutUrl": {
        "type": [
          "string",
          "null"
        ],
        "format": "uri",
        "description": "The hosted checkout page to send the customer to, while the payin is\n`PENDING`; `null` once it is final. The same link on every read.\n"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time",
        "description": "When an unpaid payin becomes `ABANDONED`. No read returns `PENDING` after it."
      },
      "paidAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When the payin became `SUCCESSFUL`."
      },
      "failedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "When the payin became `FAILED`, `ABANDONED` (its `expiresAt`, or when it was simulated) or `CANCELLED`."
      },
      "failureReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/FailureReason"
          },
          {
            "type": "null"
          }
        ]
      },
      "needsAttention": {
        "type": "boolean",
        "description": "True when the payment provider reported something that moved no\nmoney and needs an operator: a payment of another amount or\ncurrency than the payin's (the payin stays `PENDING`, and nothing\nis credited), or a payment made after the payin became final (the\nmoney is at the provider, not credited, and is refunded there).\nAlways false in sandbox.\n"
      },
      "attempts": {
        "type": "array",
        "maxItems": 10,
        "items": {
          "$ref": "#/components/schemas/PayinAttempt"
        },
        "description": "Each try at paying on the hosted checkout, oldest first: declined\nones, and the one that paid. Empty until the customer tries; a\npayin taken on a provider's page records none (retries happen\nthere).\n"
      }
    }
  },
  "PayinAttempt": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "channel",
      "outcome",
      "declineReason",
      "attemptedAt"
    ],
    "description": "One try at paying a payin at checkout.",
    "properties": {
      "channel": {
        "$ref": "#/components/schemas/PayinChannel"
      },
      "outcome": {
        "type": "string",
        "enum": [
          "succeeded",
          "declined"
        ]
      },
      "declineReason": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/DeclineReason"
          },
          {
            "type": "null"
          }
        ],
        "description": "Why it was declined; `null` when it succeeded."
      },
      "attemptedAt": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "PaystackEvent": {
    "type": "object",
    "additionalProperties": true,
    "required": [
      "event",
      "data"
    ],
    "description": "An event as Paystack sends it (https://paystack.com/docs/payments/webhooks/). Only `event` and `data.reference` are read.",
    "properties": {
      "event": {
        "type": "string",
        "example": "charge.success"
      },
      "data": {
        "type": "object",
        "additionalProperties": true,
        "properties": {
          "reference": {
            "type": "string"
          }
        }
      }
    }
  },
  "ProviderWebhookReceipt": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "received"
    ],
    "properties": {
      "received": {
        "type": "boolean",
        "const": true
      }
    }
  },
  "Health": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "status",
      "checks"
    ],
    "properties": {
      "status": {
        "type": "string",
        "enum": [
          "ok",
          "unavailable"
        ]
      },
      "checks": {
        "type": "object",
        "additionalProperties": {
          "type": "string",
          "enum": [
            "up",
            "down",
            "full",
            "draining",
            "degraded"
          ]
        },
        "description": "`nonceStore` and `payinStore`: `up`, `down`, or for the nonce store\n`full` (the in-memory store holds as many nonces as it may, so new\nrequests are refused until some expire). `lifecycle`: `up`, or\n`draining` once shutdown has begun. `provider:<name>`, for each\nupstream provider configured (such as `provider:paystack`): `up`,\nor `degraded` while its circuit is open after repeated failures.\nA degraded provider does not make the service unready: another\ninstance would meet the same provider, and payments it could not\nsettle are settled by their status checks once it is back.\n"
      }
    }
  },
  "ErrorCode": {
    "type": "string",
    "description": "Every error code the service returns, with what it means and how to fix\nit. Stable; new codes may be added, so treat an unknown code by its HTTP\nstatus.\n",
    "enum": [
      "AUTH_HEADER_MISSING",
      "AUTH_HEADER_MALFORMED",
      "AUTH_UNKNOWN_API_KEY",
      "AUTH_TIMESTAMP_SKEW",
      "AUTH_SIGNATURE_MISMATCH",
      "AUTH_NONCE_REPLAYED",
      "AUTH_MERCHANT_MISMATCH",
      "PROVIDER_SIGNATURE_INVALID",
      "PROVIDER_UNAVAILABLE",
      "PROVIDER_ADDRESS_NOT_ALLOWED",
      "INVALID_JSON",
      "INVALID_UTF8",
      "BODY_NOT_OBJECT",
      "NESTED_VALUE",
      "DUPLICATE_KEY",
      "TOO_MANY_FIELDS",
      "VALIDATION_FAILED",
      "MALFORMED_REQUEST",
      "REQUEST_TIMEOUT",
      "HEADERS_TOO_LARGE",
      "UNSUPPORTED_MEDIA_TYPE",
      "BODY_TOO_LARGE",
      "ROUTE_NOT_FOUND",
      "PAYIN_NOT_FOUND",
      "IDEMPOTENCY_CONFLICT",
      "PAYIN_NOT_PENDING",
      "GATEWAY_NOT_CONFIGURED",
      "EVENT_NOT_FOUND",
      "PAYOUT_NOT_FOUND",
      "PAYOUT_NOT_CANCELLABLE",
      "PAYOUT_TRANSITION_NOT_ALLOWED",
      "INSUFFICIENT_BALANCE",
      "ENQUIRY_NOT_FOUND",
      "ENQUIRY_EXPIRED",
      "PAYOUT_LIMIT_EXCEEDED",
      "ACCOUNT_NAME_MISMATCH",
      "PAYOUT_PROVIDER_NOT_CONFIGURED",
      "ROLE_REQUIRED",
      "APPROVER_REQUIRED",
      "PAYOUT_NOT_AWAITING_APPROVAL",
      "PAYOUT_IN_BATCH",
      "PAYOUT_BATCH_NOT_FOUND",
      "PAYOUT_BATCH_NOT_OPEN",
      "PAYOUT_BATCH_MISMATCH",
      "WEBHOOK_NOT_CONFIGURED",
      "WEBHOOK_ENDPOINT_NOT_FOUND",
      "WEBHOOK_ENDPOINTS_LIMIT_REACHED",
      "REFUND_NOT_FOUND",
      "PAYIN_NOT_REFUNDABLE",
      "REFUND_EXCEEDS_PAYIN",
      "REFUND_WINDOW_CLOSED",
      "REFUND_NOT_CANCELLABLE",
      "REFUND_NOT_AWAITING_ACCOUNT",
      "REFUND_TRANSITION_NOT_ALLOWED",
      "REFUND_PROVIDER_NOT_CONFIGURED",
      "SETTLEMENT_NOT_FOUND",
      "SETTLEMENT_ACCOUNT_NOT_SET",
      "SETTLEMENTS_PAUSED",
      "NOTHING_TO_SETTLE",
      "SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING",
      "SETTLEMENTS_NOT_ENABLED",
      "NUBAN_CHECK_FAILED",
      "ACCOUNT_NOT_FOUND",
      "ACCOUNT_DORMANT",
      "BANK_UNAVAILABLE",
      "UPSTREAM_TIMEOUT",
      "RATE_LIMITED",
      "METRICS_UNAUTHORIZED",
      "STORE_UNAVAILABLE",
      "INTERNAL_ERROR",
      "CURRENCY_NOT_SETTLEABLE",
      "DASHBOARD_UNAUTHENTICATED",
      "DASHBOARD_SIGN_IN_FAILED",
      "DASHBOARD_SIGN_IN_LIMITED",
      "DASHBOARD_CSRF_REFUSED",
      "DASHBOARD_ROLE_FORBIDDEN",
      "DASHBOARD_FRESH_FACTOR_REQUIRED",
      "DASHBOARD_STAGE_REFUSED",
      "DASHBOARD_LINK_INVALID",
      "DASHBOARD_NOT_FOUND",
      "DASHBOARD_CONFLICT",
      "DASHBOARD_FOUR_EYES"
    ],
    "x-enumDescriptions": {
      "AUTH_HEADER_MISSING": "A signing header is missing. Send all six on every signed request.",
      "AUTH_HEADER_MALFORMED": "A signing header is outside its grammar, or was sent twice. See docs/protocol.md section 1.",
      "AUTH_UNKNOWN_API_KEY": "The API key is not an active credential.",
      "AUTH_TIMESTAMP_SKEW": "The timestamp is more than 300 s from server time. Correct your clock by `serverTime`.",
      "AUTH_SIGNATURE_MISMATCH": "The signature does not match. Compare your intermediate values with `debug` (sandbox).",
      "AUTH_NONCE_REPLAYED": "The nonce was already used with this API key in the last 600 s. Use a new nonce per request.",
      "AUTH_MERCHANT_MISMATCH": "`X-Merchant-ID` or `X-Tenant-ID` is not that of the API key's merchant.",
      "PROVIDER_SIGNATURE_INVALID": "A provider webhook (`/payment/provider-webhooks/paystack`) whose signature header is missing or does not match its body: not sent by the provider, or signed with another key. Nothing moved.",
      "PROVIDER_ADDRESS_NOT_ALLOWED": "A provider webhook from an address outside `PROVIDER_WEBHOOK_ALLOWED_ADDRESSES`, where the operator set it: not sent by the provider. Nothing was read or moved.",
      "PROVIDER_UNAVAILABLE": "A provider webhook could not be verified with the provider's API now; nothing moved, and the provider sends it again.",
      "INVALID_JSON": "The body is not JSON.",
      "INVALID_UTF8": "The body is not UTF-8, or holds an unpaired surrogate escape.",
      "BODY_NOT_OBJECT": "The body is JSON but not an object.",
      "NESTED_VALUE": "A field holds an object or array; only flat fields can be signed.",
      "DUPLICATE_KEY": "A field appears twice.",
      "TOO_MANY_FIELDS": "The body has more fields than the service reads (32 by default); it was refused before the rest was read.",
      "VALIDATION_FAILED": "One or more fields are invalid; see `details`.",
      "MALFORMED_REQUEST": "The request is not valid HTTP/1.1, or its path cannot be read.",
      "REQUEST_TIMEOUT": "The request did not arrive in time (15 s by default); the connection was closed. Send the whole request at once.",
      "HEADERS_TOO_LARGE": "The request head is larger than the service reads. Send fewer or shorter headers.",
      "UNSUPPORTED_MEDIA_TYPE": "The body is not sent as `application/json`.",
      "BODY_TOO_LARGE": "The body is larger than the service accepts (64 KiB by default).",
      "ROUTE_NOT_FOUND": "No operation at this method and path.",
      "PAYIN_NOT_FOUND": "The merchant has no payin with this reference.",
      "IDEMPOTENCY_CONFLICT": "The reference was used with a different body. Use a new reference, or resend the original body.",
      "PAYIN_NOT_PENDING": "The payin is already in a final state, which never changes. Read the payin for its outcome.",
      "GATEWAY_NOT_CONFIGURED": "No payment gateway adapter serves the payin's channel in this deployment, so the customer could not pay.",
      "EVENT_NOT_FOUND": "The merchant has no webhook event with this id.",
      "PAYOUT_NOT_FOUND": "The merchant has no payout with this reference.",
      "SETTLEMENT_NOT_FOUND": "The merchant has no settlement with this id.",
      "SETTLEMENT_ACCOUNT_NOT_SET": "No settlement account is in force yet. Name one with `PUT /payment/api/settlement-account`.",
      "SETTLEMENTS_PAUSED": "A settlement failed, so settlements are paused. Name a working settlement account, or set the schedule again if the account is right.",
      "NOTHING_TO_SETTLE": "The `available` balance is below the minimum a settlement pays out. Wait for more to settle from `pending`.",
      "SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING": "No change of settlement account is waiting, so there is nothing to cancel. Read the settlement account.",
      "SETTLEMENTS_NOT_ENABLED": "This deployment does not settle balances to bank accounts yet (`SETTLEMENTS_ENABLED`); nothing was held. Ask the operator.",
      "PAYOUT_NOT_CANCELLABLE": "Only a `QUEUED` or `PENDING_APPROVAL` payout can be cancelled; this one is being sent or is final. Read it for its outcome.",
      "PAYOUT_TRANSITION_NOT_ALLOWED": "The payout's status, or the sandbox provider's own record of its transfer, does not allow the simulated outcome.",
      "INSUFFICIENT_BALANCE": "The payout and its fee exceed the `available` balance, or the refund exceeds both balances it may be drawn from (docs/refunds.md); nothing was held. Wait for settlement, or pay out or refund less.",
      "ENQUIRY_NOT_FOUND": "No account enquiry of this merchant has this `enquiryId`. Enquire the account, then use the `enquiryId` it returns.",
      "ENQUIRY_EXPIRED": "The enquiry is past its `expiresAt`. Enquire the account again, and use the new `enquiryId`.",
      "PAYOUT_LIMIT_EXCEEDED": "The amount is below the minimum or above the maximum payout, or the merchant's payouts of the last 24 hours would pass the daily total.",
      "ACCOUNT_NAME_MISMATCH": "`expectedAccountName` does not match the enquired account name. Check the beneficiary before paying.",
      "PAYOUT_PROVIDER_NOT_CONFIGURED": "This deployment has no payout provider (`PAYOUT_PROVIDER=none`), so no payout can be sent.",
      "ROLE_REQUIRED": "The API key lacks the role the operation needs (`payouts:create`, `refunds:create`, `webhooks:manage` or `settlements:manage`). Sign with a credential that holds it, or ask the operator to grant it.",
      "APPROVER_REQUIRED": "Approving needs a credential with the `payouts:approve` role that did not create what it approves (four eyes). Sign with another credential.",
      "PAYOUT_NOT_AWAITING_APPROVAL": "The payout is not `PENDING_APPROVAL`: it was already approved, rejected, expired or cancelled, or never needed approval. Read it for its state.",
      "PAYOUT_IN_BATCH": "The payout belongs to a batch: it is submitted, approved and cancelled with its batch, not on its own.",
      "PAYOUT_BATCH_NOT_FOUND": "The merchant has no payout batch with this reference. Create it first.",
      "PAYOUT_BATCH_NOT_OPEN": "The batch is no longer `OPEN`: it was submitted, cancelled or expired. Payouts join, and batches are submitted or cancelled, only while `OPEN`.",
      "PAYOUT_BATCH_MISMATCH": "The batch does not hold the count or total you expected: an item is missing or extra. `message` gives both, `details` each that differs; nothing was submitted.",
      "REFUND_NOT_FOUND": "The merchant has no refund with this reference.",
      "PAYIN_NOT_REFUNDABLE": "Only a `SUCCESSFUL` payin that is not flagged `needsAttention` can be refunded; `message` says what this one is.",
      "REFUND_EXCEEDS_PAYIN": "The refund is more than the payin has left to refund, counting its successful and in-flight refunds; `details` gives the payin's amount, what is refunded or in flight, and what is left.",
      "REFUND_WINDOW_CLOSED": "The payin was paid more than `REFUND_WINDOW_DAYS` ago (180 by default); refund the customer another way.",
      "REFUND_NOT_CANCELLABLE": "Only a `PENDING` refund can be cancelled; this one was sent to the provider or is final. Read it for its outcome.",
      "REFUND_NOT_AWAITING_ACCOUNT": "A bank account is given only for a refund in `REQUIRES_ACTION`. Read the refund for its state.",
      "REFUND_TRANSITION_NOT_ALLOWED": "The refund's status does not allow the simulated outcome.",
      "REFUND_PROVIDER_NOT_CONFIGURED": "The payin's provider of record cannot refund in this deployment (it is not configured, or does not implement refunds).",
      "WEBHOOK_NOT_CONFIGURED": "A `notifyUrl` was given, but the merchant has no enabled webhook endpoint whose secrets could sign notifications. Create one, or leave `notifyUrl` out.",
      "WEBHOOK_ENDPOINT_NOT_FOUND": "The merchant has no webhook endpoint with this id. List them with `GET /payment/api/webhook-endpoints`.",
      "WEBHOOK_ENDPOINTS_LIMIT_REACHED": "The merchant already holds `WEBHOOK_ENDPOINTS_PER_MERCHANT` webhook endpoints (16 by default), disabled ones included. Delete one it no longer uses, or add events to an existing one.",
      "NUBAN_CHECK_FAILED": "The account number's NUBAN check digit is wrong for this bank; the bank was not asked.",
      "ACCOUNT_NOT_FOUND": "The bank has no such account.",
      "ACCOUNT_DORMANT": "The account is dormant and cannot receive payouts.",
      "BANK_UNAVAILABLE": "The beneficiary's bank is not answering. Retry with backoff.",
      "UPSTREAM_TIMEOUT": "The beneficiary's bank did not answer in time. Retry with backoff.",
      "RATE_LIMITED": "Too many requests from this API key, or from this address before verification. Wait `Retry-After` seconds, then retry.",
      "METRICS_UNAUTHORIZED": "The metrics need `Authorization: Bearer` with the operator's `METRICS_TOKEN`.",
      "STORE_UNAVAILABLE": "A store the service needs is down; nothing was admitted or recorded. Retry with backoff.",
      "INTERNAL_ERROR": "An unexpected failure. Retry with backoff; quote the `requestId` if it persists.",
      "CURRENCY_NOT_SETTLEABLE": "A payin in a currency the platform cannot settle or pay out (only NGN does), which the operator has not enabled for the merchant. Create it in NGN, or ask the operator to enable the currency, which you then settle with them outside the platform.",
      "DASHBOARD_UNAUTHENTICATED": "The dashboard call has no session, or its session ended. Sign in again.",
      "DASHBOARD_SIGN_IN_FAILED": "The email and password, the TOTP code or the passkey did not verify. Try again; repeated failures lock the account for a while (docs/dashboard.md).",
      "DASHBOARD_SIGN_IN_LIMITED": "Too many failed sign-ins for this account or from this address. Wait `Retry-After` seconds.",
      "DASHBOARD_CSRF_REFUSED": "A state-changing dashboard call without the session's `X-CSRF-Token`, or from another origin.",
      "DASHBOARD_ROLE_FORBIDDEN": "The member's role does not admit this operation (the operation's `x-roles`).",
      "DASHBOARD_FRESH_FACTOR_REQUIRED": "The operation needs a second factor given within `DASHBOARD_FRESH_FACTOR_SECONDS`. Confirm one, then repeat.",
      "DASHBOARD_STAGE_REFUSED": "The session has not finished signing in (`second_factor`) or enrolling a factor (`enrol`).",
      "DASHBOARD_LINK_INVALID": "The setup or invitation link is unknown, used or expired. Ask for a new one.",
      "DASHBOARD_NOT_FOUND": "The object does not exist for the signed-in member's merchant.",
      "DASHBOARD_CONFLICT": "The object's state does not allow this now; `message` says why and what to do.",
      "DASHBOARD_FOUR_EYES": "The payout or batch came from the member, in the dashboard, or from an API key they made; another member approves it (four eyes)."
    }
  },
  "FieldError": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "field",
      "code",
      "message"
    ],
    "properties": {
      "field": {
        "type": "string",
        "description": "The body field, header or path parameter that failed."
      },
      "code": {
        "type": "string",
        "description": "The rule that failed, for example `required`, `pattern`, `unknown`.\nText fields add `control_characters`, `invisible_characters` (a\nUnicode format or default-ignorable character, named by code point\nin `message`) and `no_visible_character` (nothing but white space,\ncombining marks or blank characters such as U+2800).\n"
      },
      "message": {
        "type": "string"
      }
    }
  },
  "SigningDebug": {
    "type": "object",
    "additionalProperties": false,
    "description": "Sandbox mode only. The server's intermediate values, to compare with yours. Never holds a secret.",
    "required": [
      "canonicalBody",
      "bodySha256Hex",
      "baseString"
    ],
    "properties": {
      "canonicalBody": {
        "type": "string"
      },
      "bodySha256Hex": {
        "type": "string"
      },
      "baseString": {
        "type": "string"
      }
    }
  },
  "Error": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "code",
      "message",
      "requestId",
      "retryable"
    ],
    "properties": {
      "code": {
        "$ref": "#/components/schemas/ErrorCode"
      },
      "message": {
        "type": "string",
        "description": "What went wrong and how to fix it."
      },
      "requestId": {
        "type": "string"
      },
      "retryable": {
        "type": "boolean",
        "description": "Whether sending the same request again later may succeed."
      },
      "details": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/FieldError"
        }
      },
      "serverTime": {
        "type": "integer",
        "description": "The server's clock in Unix seconds, on `AUTH_TIMESTAMP_SKEW`."
      },
      "debug": {
        "$ref": "#/components/schemas/SigningDebug"
      }
    }
  },
  "BadRequestError": {
    "allOf": [
      {
        "$ref": "#/components/schemas/Error"
      },
      {
        "type": "object",
        "properties": {
          "code": {
            "type": "string",
            "enum": [
              "VALIDATION_FAILED",
              "INVALID_JSON",
              "INVALID_UTF8",
              "BODY_NOT_OBJECT",
              "NESTED_VALUE",
              "DUPLICATE_KEY",
              "TOO_MANY_FIELDS",
              "MALFORMED_REQUEST"
            ]
          }
        }
      }
    ]
  },
  "AuthError": {
    "allOf": [
      {
        "$ref": "#/components/schemas/Error"
      },
      {
        "type": "object",
        "properties": {
          "code": {
            "type": "string",
            "enum": [
              "AUTH_HEADER_MISSING",
              "AUTH_HEADER_MALFORMED",
              "AUTH_UNKNOWN_API_KEY",
              "AUTH_TIMESTAMP_SKEW",
              "AUTH_SIGNATURE_MISMATCH",
              "AUTH_NONCE_REPLAYED",
              "AUTH_MERCHANT_MISMATCH"
            ]
          }
        }
      }
    ]
  }
} as const;
