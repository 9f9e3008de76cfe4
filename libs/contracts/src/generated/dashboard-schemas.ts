/*
 * GENERATED FILE, DO NOT EDIT.
 * Source: openapi/dashboard-api.yaml. Regenerate with `npm run generate`.
 * Inputs: sha256 72a27213d07d0152218ede541922386525776da2d559c4f8aa4239235682118d
 */

/** The contract's component schemas, as data: the one source of every enum, pattern and limit. */
export const DASHBOARD_SCHEMAS = {
  "Error": {
    "type": "object",
    "required": [
      "code",
      "message",
      "requestId",
      "retryable"
    ],
    "properties": {
      "code": {
        "type": "string",
        "description": "A code of the service's registry (`docs/errors.md`); the dashboard's own start with `DASHBOARD_`."
      },
      "message": {
        "type": "string"
      },
      "requestId": {
        "type": "string"
      },
      "retryable": {
        "type": "boolean"
      },
      "details": {
        "type": "array",
        "items": {
          "type": "object",
          "required": [
            "field",
            "message"
          ],
          "properties": {
            "field": {
              "type": "string"
            },
            "message": {
              "type": "string"
            }
          }
        }
      }
    }
  },
  "Role": {
    "type": "string",
    "enum": [
      "owner",
      "admin",
      "developer",
      "operations",
      "approver",
      "viewer"
    ],
    "description": "`owner` and `admin`: everything, the team and the security log\nincluded. `developer`: keys and webhook endpoints. `operations`:\npayins, refunds and payouts. `approver`: approves payouts.\n`viewer`: reads. Only an owner makes or unmakes an owner.\n"
  },
  "ApiKeyRole": {
    "type": "string",
    "enum": [
      "payouts:create",
      "payouts:approve",
      "refunds:create",
      "webhooks:manage",
      "settlements:manage"
    ]
  },
  "Session": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "stage",
      "member",
      "merchant",
      "csrfToken",
      "factors",
      "freshFactorUntil",
      "expiresAt"
    ],
    "properties": {
      "stage": {
        "type": "string",
        "enum": [
          "second_factor",
          "enrol",
          "active"
        ],
        "description": "`second_factor`: the password was right, a factor is next; `enrol`: the member has no factor yet; `active`: signed in."
      },
      "member": {
        "$ref": "#/components/schemas/Member"
      },
      "merchant": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "merchantId",
          "name"
        ],
        "properties": {
          "merchantId": {
            "type": "string"
          },
          "name": {
            "type": "string"
          }
        }
      },
      "csrfToken": {
        "type": "string",
        "description": "Send it as `X-CSRF-Token` on every call that changes something."
      },
      "factors": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "totp",
          "passkeys"
        ],
        "properties": {
          "totp": {
            "type": "boolean"
          },
          "passkeys": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "freshFactorUntil": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "Until when calls marked `x-fresh-factor` are allowed without another factor."
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time",
        "description": "The sooner of the idle and the absolute timeout."
      }
    },
    "example": {
      "stage": "active",
      "member": {
        "id": "mem_0123456789abcdefghijklmn",
        "email": "ada@example.com",
        "role": "owner",
        "createdAt": "2026-01-01T00:00:00.000Z"
      },
      "merchant": {
        "merchantId": "MCH-SANDBOX-0001",
        "name": "Sandbox Store"
      },
      "csrfToken": "hUqKk3yq0Xm4oFvZ1b3bq2p9oQmX7yQnC4h8d2Zx0aE",
      "factors": {
        "totp": true,
        "passkeys": 1
      },
      "freshFactorUntil": "2026-01-01T00:05:00.000Z",
      "expiresAt": "2026-01-01T00:30:00.000Z"
    }
  },
  "SignInRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "email",
      "password"
    ],
    "properties": {
      "email": {
        "type": "string",
        "format": "email",
        "maxLength": 254
      },
      "password": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024
      }
    }
  },
  "TotpCode": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "code"
    ],
    "properties": {
      "code": {
        "type": "string",
        "pattern": "^[0-9]{6}$"
      }
    }
  },
  "PasskeyResponse": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "response"
    ],
    "properties": {
      "response": {
        "type": "object",
        "additionalProperties": true,
        "description": "What `navigator.credentials.get()` returned, as `@simplewebauthn/browser` encodes it."
      }
    }
  },
  "PasskeyRegistration": {
    "type": "object",
    "required": [
      "response",
      "name"
    ],
    "properties": {
      "response": {
        "type": "object",
        "additionalProperties": true,
        "description": "What `navigator.credentials.create()` returned, as `@simplewebauthn/browser` encodes it."
      },
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 64
      }
    }
  },
  "PasskeyAssertionOptions": {
    "type": "object",
    "description": "`PublicKeyCredentialRequestOptionsJSON`.",
    "additionalProperties": true,
    "required": [
      "challenge"
    ],
    "properties": {
      "challenge": {
        "type": "string"
      }
    }
  },
  "PasskeyCreationOptions": {
    "type": "object",
    "description": "`PublicKeyCredentialCreationOptionsJSON`.",
    "additionalProperties": true,
    "required": [
      "challenge"
    ],
    "properties": {
      "challenge": {
        "type": "string"
      }
    }
  },
  "TotpEnrolment": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "secret",
      "otpauthUrl"
    ],
    "properties": {
      "secret": {
        "type": "string",
        "description": "Base32, for typing into an authenticator app."
      },
      "otpauthUrl": {
        "type": "string",
        "description": "The `otpauth://` URL a QR code carries."
      }
    }
  },
  "Factors": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "totp",
      "passkeys"
    ],
    "properties": {
      "totp": {
        "type": "boolean"
      },
      "passkeys": {
        "type": "array",
        "items": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "id",
            "name",
            "createdAt",
            "lastUsedAt"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "createdAt": {
              "type": "string",
              "format": "date-time"
            },
            "lastUsedAt": {
              "type": [
                "string",
                "null"
              ],
              "format": "date-time"
            }
          }
        }
      }
    }
  },
  "Link": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "kind",
      "email",
      "role",
      "merchantName",
      "expiresAt"
    ],
    "properties": {
      "kind": {
        "type": "string",
        "enum": [
          "setup",
          "invitation"
        ]
      },
      "email": {
        "type": "string"
      },
      "role": {
        "$ref": "#/components/schemas/Role"
      },
      "merchantName": {
        "type": "string"
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "LinkTokenRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "token"
    ],
    "properties": {
      "token": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{43}$",
        "description": "What follows `#` in the link."
      }
    }
  },
  "AcceptLinkRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "token",
      "password"
    ],
    "properties": {
      "token": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{43}$",
        "description": "What follows `#` in the link."
      },
      "password": {
        "type": "string",
        "minLength": 12,
        "maxLength": 1024,
        "description": "At least 12 characters."
      }
    }
  },
  "Overview": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "balances",
      "collections",
      "payouts"
    ],
    "properties": {
      "balances": {
        "type": "array",
        "items": {
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
              "type": "string"
            },
            "available": {
              "type": "integer"
            },
            "pending": {
              "type": "integer"
            },
            "held": {
              "type": "integer"
            }
          }
        }
      },
      "collections": {
        "$ref": "#/components/schemas/PeriodTotals"
      },
      "payouts": {
        "$ref": "#/components/schemas/PeriodTotals"
      }
    }
  },
  "PeriodTotals": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "today",
      "week"
    ],
    "description": "Today is the UTC day; the week is the last 7 UTC days, today included.",
    "properties": {
      "today": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/CountedMoney"
        }
      },
      "week": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/CountedMoney"
        }
      }
    }
  },
  "CountedMoney": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "currency",
      "amount",
      "count"
    ],
    "properties": {
      "currency": {
        "type": "string"
      },
      "amount": {
        "type": "integer"
      },
      "count": {
        "type": "integer"
      }
    }
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
  "BalanceKind": {
    "type": "string",
    "enum": [
      "available",
      "pending",
      "held"
    ],
    "description": "`pending`: collected, not yet settled into `available`. `available`: the merchant's to pay out or settle. `held`: set aside for payouts and refunds in flight."
  },
  "Balances": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data"
    ],
    "properties": {
      "data": {
        "type": "array",
        "description": "One per currency the merchant holds, naira always, first.",
        "items": {
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
              "type": "integer",
              "description": "In kobo (minor units)."
            },
            "pending": {
              "type": "integer",
              "description": "In kobo (minor units)."
            },
            "held": {
              "type": "integer",
              "description": "In kobo (minor units)."
            }
          }
        }
      }
    },
    "example": {
      "data": [
        {
          "currency": "NGN",
          "available": 1250000,
          "pending": 98500,
          "held": 0
        }
      ]
    }
  },
  "EntryId": {
    "type": "string",
    "pattern": "^[1-9][0-9]{0,18}$",
    "description": "A ledger entry's id; later entries have larger ids."
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
    "description": "What moved the money, as the signed API's `BalanceEntryType` says."
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
      "source",
      "createdAt"
    ],
    "properties": {
      "id": {
        "$ref": "#/components/schemas/EntryId"
      },
      "type": {
        "$ref": "#/components/schemas/BalanceEntryType"
      },
      "balance": {
        "$ref": "#/components/schemas/BalanceKind"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo (minor units), signed; never zero."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "source": {
        "$ref": "#/components/schemas/EntrySource"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      }
    },
    "example": {
      "id": "4182",
      "type": "payin_credit",
      "balance": "pending",
      "amount": 500000,
      "currency": "NGN",
      "source": {
        "kind": "payin",
        "reference": "order-1042",
        "payinReference": "order-1042"
      },
      "createdAt": "2026-11-02T09:30:00.000Z"
    }
  },
  "EntrySource": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "kind",
      "reference",
      "payinReference"
    ],
    "description": "The object whose journal the entry is part of.",
    "properties": {
      "kind": {
        "type": "string",
        "enum": [
          "payin",
          "payout",
          "refund",
          "settlement"
        ]
      },
      "reference": {
        "type": "string",
        "description": "The payin's, payout's or refund's reference, or the settlement's id."
      },
      "payinReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "The payin the object belongs to (a payin's own reference, a refund's payin); `null` for a payout or a settlement."
      }
    }
  },
  "BalanceEntryPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "description": "Newest first.",
        "items": {
          "$ref": "#/components/schemas/BalanceEntry"
        }
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ],
        "description": "Pass it as `after` (`cursor` for a settlement's entries) for the next, older page; `null` on the last page."
      }
    }
  },
  "SettlementInterval": {
    "type": "string",
    "enum": [
      "daily",
      "weekly",
      "manual"
    ],
    "description": "`daily` and `weekly` settle at `runHourUtc`; `manual` settles only when asked."
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
        "type": "integer",
        "description": "In kobo; a run settles nothing while `available` is below it."
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
        "maximum": 23
      },
      "paused": {
        "type": "boolean",
        "description": "A failed settlement paused the runs until an operator resumes them."
      },
      "pausedBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The id of the settlement whose failure paused them."
      },
      "nextRunAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time",
        "description": "`null` when no run is due: manual, paused, off, or no account in force."
      }
    },
    "example": {
      "interval": "weekly",
      "minimumAmount": 500000,
      "weekday": "friday",
      "runHourUtc": 6,
      "paused": false,
      "pausedBy": null,
      "nextRunAt": "2026-11-06T06:00:00.000Z"
    }
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
        "type": "integer",
        "minimum": 0,
        "maximum": 100000000000,
        "description": "In kobo; 0 settles any balance."
      },
      "weekday": {
        "$ref": "#/components/schemas/Weekday",
        "description": "With `weekly` only, and required with it."
      }
    },
    "example": {
      "interval": "weekly",
      "minimumAmount": 500000,
      "weekday": "friday"
    }
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
        "type": "string"
      }
    }
  },
  "SettlementAccountState": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "current",
      "pending",
      "changeDelaySeconds"
    ],
    "properties": {
      "current": {
        "description": "The account settlements are paid to now; `null` until one is in force.",
        "oneOf": [
          {
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
          {
            "type": "null"
          }
        ]
      },
      "pending": {
        "description": "A change waiting for its delay; `null` when none is.",
        "oneOf": [
          {
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
                "description": "When it comes into force, unless cancelled before."
              }
            }
          },
          {
            "type": "null"
          }
        ]
      },
      "changeDelaySeconds": {
        "type": "integer",
        "description": "How long a change waits before it is in force: SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS."
      }
    },
    "example": {
      "current": {
        "account": {
          "bankCode": "058",
          "accountNumber": "0123456785",
          "accountName": "Ada Lovelace",
          "enquiryId": "enq_3q2w7RkY8x0cQm5nVbLz1s"
        },
        "inForceSince": "2026-10-01T08:00:00.000Z"
      },
      "pending": null,
      "changeDelaySeconds": 86400
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
        "type": "string",
        "pattern": "^enq_[A-Za-z0-9_-]{22}$",
        "description": "A successful account enquiry of the merchant's own bank account."
      }
    },
    "example": {
      "enquiryId": "enq_3q2w7RkY8x0cQm5nVbLz1s"
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
    ]
  },
  "Settlement": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "status",
      "amount",
      "currency",
      "trigger",
      "account",
      "narration",
      "providerReference",
      "failureReason",
      "needsAttention",
      "createdAt",
      "processingAt",
      "completedAt",
      "reversedAt"
    ],
    "properties": {
      "id": {
        "type": "string",
        "pattern": "^stl_[A-Za-z0-9]{22}$"
      },
      "status": {
        "$ref": "#/components/schemas/SettlementStatus"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo; the sum of the entries it covered."
      },
      "currency": {
        "$ref": "#/components/schemas/Currency"
      },
      "trigger": {
        "type": "string",
        "enum": [
          "schedule",
          "manual"
        ]
      },
      "account": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "bankCode",
          "accountNumber",
          "accountName"
        ],
        "description": "The account in force when it was made.",
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
        "description": "On the merchant's bank statement; it carries the settlement's id."
      },
      "providerReference": {
        "type": [
          "string",
          "null"
        ]
      },
      "failureReason": {
        "type": [
          "string",
          "null"
        ]
      },
      "needsAttention": {
        "type": "boolean"
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
        "format": "date-time"
      },
      "reversedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    },
    "example": {
      "id": "stl_3q2w7RkY8x0cQm5nVbLz1s",
      "status": "PAID",
      "amount": 1250000,
      "currency": "NGN",
      "trigger": "schedule",
      "account": {
        "bankCode": "058",
        "accountNumber": "0123456785",
        "accountName": "Ada Lovelace"
      },
      "narration": "Paysign settlement stl_3q2w7RkY8x0cQm5nVbLz1s",
      "providerReference": "TRF_1a2b3c",
      "failureReason": null,
      "needsAttention": false,
      "createdAt": "2026-11-02T06:00:00.000Z",
      "processingAt": "2026-11-02T06:00:01.000Z",
      "completedAt": "2026-11-02T06:00:05.000Z",
      "reversedAt": null
    }
  },
  "SettlementPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "description": "Newest first.",
        "items": {
          "$ref": "#/components/schemas/Settlement"
        }
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ],
        "description": "Pass it as `cursor` for the next, older page; `null` on the last page."
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
        "type": "string",
        "pattern": "^[A-Za-z0-9._-]{1,64}$",
        "description": "Your reference for this request: the same again answers the settlement it made."
      },
      "currency": {
        "type": "string",
        "enum": [
          "NGN"
        ]
      }
    },
    "example": {
      "reference": "settle-2026-11-02",
      "currency": "NGN"
    }
  },
  "ApiKey": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "apiKey",
      "roles",
      "status",
      "secretFingerprint",
      "createdAt",
      "expiresAt",
      "lastUsedAt"
    ],
    "properties": {
      "apiKey": {
        "type": "string"
      },
      "roles": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/ApiKeyRole"
        }
      },
      "status": {
        "type": "string",
        "enum": [
          "active",
          "revoked",
          "expired"
        ]
      },
      "secretFingerprint": {
        "type": "string"
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
        "format": "date-time"
      },
      "lastUsedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "CreateKeyRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "roles"
    ],
    "properties": {
      "roles": {
        "type": "array",
        "minItems": 1,
        "uniqueItems": true,
        "items": {
          "$ref": "#/components/schemas/ApiKeyRole"
        }
      }
    }
  },
  "RollKeyRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "oldKeyExpiresIn"
    ],
    "properties": {
      "oldKeyExpiresIn": {
        "type": "string",
        "enum": [
          "now",
          "1h",
          "24h",
          "7d"
        ],
        "description": "How long the old key keeps verifying requests."
      }
    }
  },
  "NewApiKey": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "apiKey",
      "secretKey",
      "roles"
    ],
    "properties": {
      "apiKey": {
        "type": "string"
      },
      "secretKey": {
        "type": "string",
        "description": "Shown this once, then only its fingerprint."
      },
      "roles": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/ApiKeyRole"
        }
      },
      "oldKeyExpiresAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "Endpoint": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "url",
      "enabledEvents",
      "description",
      "enabled",
      "secretFingerprints",
      "createdAt"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "url": {
        "type": "string",
        "format": "uri"
      },
      "enabledEvents": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "enabled": {
        "type": "boolean"
      },
      "secretFingerprints": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "EndpointWithSecret": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "url",
      "enabledEvents",
      "description",
      "enabled",
      "secretFingerprints",
      "createdAt",
      "secret"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "url": {
        "type": "string",
        "format": "uri"
      },
      "enabledEvents": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "description": {
        "type": [
          "string",
          "null"
        ]
      },
      "enabled": {
        "type": "boolean"
      },
      "secretFingerprints": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "secret": {
        "type": "string",
        "description": "Shown this once."
      }
    }
  },
  "CreateEndpointRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "url",
      "enabledEvents"
    ],
    "properties": {
      "url": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048
      },
      "enabledEvents": {
        "type": "array",
        "minItems": 1,
        "items": {
          "type": "string",
          "maxLength": 64
        }
      },
      "description": {
        "type": "string",
        "maxLength": 256
      }
    }
  },
  "UpdateEndpointRequest": {
    "type": "object",
    "additionalProperties": false,
    "minProperties": 1,
    "properties": {
      "url": {
        "type": "string",
        "format": "uri",
        "maxLength": 2048
      },
      "enabledEvents": {
        "type": "array",
        "minItems": 1,
        "items": {
          "type": "string",
          "maxLength": 64
        }
      },
      "description": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 256
      },
      "enabled": {
        "type": "boolean"
      }
    }
  },
  "RollSecretRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "oldSecretExpiresIn"
    ],
    "properties": {
      "oldSecretExpiresIn": {
        "type": "string",
        "enum": [
          "now",
          "1h",
          "24h",
          "7d"
        ]
      }
    }
  },
  "DeliveryAttempt": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "attempt",
      "at",
      "durationMs",
      "statusCode",
      "error",
      "responseExcerpt"
    ],
    "properties": {
      "attempt": {
        "type": "integer"
      },
      "at": {
        "type": "string",
        "format": "date-time"
      },
      "durationMs": {
        "type": "integer"
      },
      "statusCode": {
        "type": [
          "integer",
          "null"
        ]
      },
      "error": {
        "type": [
          "string",
          "null"
        ]
      },
      "responseExcerpt": {
        "type": [
          "string",
          "null"
        ],
        "maxLength": 512
      }
    }
  },
  "Delivery": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "eventId",
      "eventType",
      "createdAt",
      "outcome",
      "attempts",
      "cursor"
    ],
    "properties": {
      "eventId": {
        "type": "string"
      },
      "eventType": {
        "type": "string"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "outcome": {
        "type": "string",
        "enum": [
          "delivered",
          "failing",
          "failed",
          "pending"
        ],
        "description": "`failing`: attempts failed and another is due; `failed`: no attempt is left."
      },
      "attempts": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/DeliveryAttempt"
        }
      },
      "cursor": {
        "type": "string"
      }
    }
  },
  "DeliveryPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Delivery"
        }
      },
      "hasMore": {
        "type": "boolean"
      }
    }
  },
  "Member": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "email",
      "role",
      "createdAt"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "email": {
        "type": "string"
      },
      "role": {
        "$ref": "#/components/schemas/Role"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      }
    }
  },
  "Invitation": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "email",
      "role",
      "expiresAt"
    ],
    "properties": {
      "email": {
        "type": "string"
      },
      "role": {
        "$ref": "#/components/schemas/Role"
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time"
      },
      "url": {
        "type": "string",
        "description": "The one-time link, answered only to the inviter, once."
      },
      "mailed": {
        "type": "boolean"
      }
    }
  },
  "Team": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "members",
      "invitations"
    ],
    "properties": {
      "members": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Member"
        }
      },
      "invitations": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Invitation"
        }
      }
    }
  },
  "InviteRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "email",
      "role"
    ],
    "properties": {
      "email": {
        "type": "string",
        "format": "email",
        "maxLength": 254
      },
      "role": {
        "$ref": "#/components/schemas/Role"
      }
    }
  },
  "ChangeRoleRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "role"
    ],
    "properties": {
      "role": {
        "$ref": "#/components/schemas/Role"
      }
    }
  },
  "SecurityLogEntry": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "at",
      "actor",
      "channel",
      "action",
      "subject",
      "address",
      "detail"
    ],
    "properties": {
      "id": {
        "type": "integer"
      },
      "at": {
        "type": "string",
        "format": "date-time"
      },
      "actor": {
        "type": "string"
      },
      "channel": {
        "type": "string",
        "description": "`dashboard`, or the operator's `cli`."
      },
      "action": {
        "type": "string"
      },
      "subject": {
        "type": [
          "string",
          "null"
        ]
      },
      "address": {
        "type": [
          "string",
          "null"
        ]
      },
      "detail": {
        "type": "object"
      }
    }
  },
  "SecurityLogPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "hasMore"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/SecurityLogEntry"
        }
      },
      "hasMore": {
        "type": "boolean"
      }
    }
  },
  "ApprovalBinding": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "kind",
      "reference",
      "amount",
      "currency",
      "destination",
      "count"
    ],
    "description": "What the approver is shown and signs.",
    "properties": {
      "kind": {
        "type": "string",
        "enum": [
          "payout",
          "batch"
        ]
      },
      "reference": {
        "type": "string"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo; a batch's total."
      },
      "currency": {
        "type": "string"
      },
      "destination": {
        "type": "string",
        "description": "`bankCode/accountNumber accountName` of a payout; `N payouts of batch \"title\"` of a batch."
      },
      "count": {
        "type": "integer",
        "description": "The payouts approved at once; 1 for a payout."
      }
    }
  },
  "PendingApproval": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "kind",
      "reference",
      "amount",
      "currency",
      "destination",
      "count",
      "createdAt",
      "createdBy"
    ],
    "description": "A payout or batch waiting, with what its approval binds.",
    "properties": {
      "kind": {
        "type": "string",
        "enum": [
          "payout",
          "batch"
        ]
      },
      "reference": {
        "type": "string"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo; a batch's total."
      },
      "currency": {
        "type": "string"
      },
      "destination": {
        "type": "string"
      },
      "count": {
        "type": "integer"
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "createdBy": {
        "type": "string",
        "description": "The API key that created it, or `dashboard:` and the email of the member who did."
      }
    }
  },
  "ApprovalChallenge": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "binding",
      "options"
    ],
    "properties": {
      "binding": {
        "$ref": "#/components/schemas/ApprovalBinding"
      },
      "options": {
        "$ref": "#/components/schemas/PasskeyAssertionOptions"
      }
    }
  },
  "ApproveRequest": {
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "passkey": {
        "type": "object",
        "additionalProperties": true,
        "description": "The assertion over the challenge of `/options`."
      },
      "totpCode": {
        "type": "string",
        "pattern": "^[0-9]{6}$"
      }
    }
  },
  "ApprovalResult": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "kind",
      "reference",
      "status"
    ],
    "properties": {
      "kind": {
        "type": "string",
        "enum": [
          "payout",
          "batch"
        ]
      },
      "reference": {
        "type": "string"
      },
      "status": {
        "type": "string"
      }
    }
  },
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
        "type": "string"
      },
      "code": {
        "type": "string",
        "pattern": "^[0-9]{3,6}$",
        "description": "The bank's code, for `bankCode`."
      },
      "logo": {
        "type": [
          "string",
          "null"
        ]
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
        ]
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
        "description": "A `code` from `GET /banks`."
      },
      "accountNumber": {
        "type": "string",
        "pattern": "^[0-9]{10}$",
        "description": "A 10-digit NUBAN account number."
      }
    }
  },
  "AccountEnquiry": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "accountName",
      "bankCode",
      "accountNumber",
      "enquiryId",
      "expiresAt"
    ],
    "properties": {
      "accountName": {
        "type": "string",
        "description": "The account holder's name as the bank gives it."
      },
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "enquiryId": {
        "type": "string",
        "pattern": "^enq_[A-Za-z0-9_-]{22}$"
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time",
        "description": "Until when a payout or a settlement account may name `enquiryId`."
      }
    }
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
    "description": "As the merchant API's `PayoutStatus`."
  },
  "PayoutBatchStatus": {
    "type": "string",
    "enum": [
      "OPEN",
      "SUBMITTED",
      "COMPLETED",
      "CANCELLED"
    ]
  },
  "Payout": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "status",
      "amount",
      "fee",
      "currency",
      "bankCode",
      "accountNumber",
      "accountName",
      "nameMatch",
      "narration",
      "batchReference",
      "createdBy",
      "approval",
      "failureReason",
      "cancellationReason",
      "createdAt",
      "completedAt"
    ],
    "properties": {
      "reference": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayoutStatus"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo."
      },
      "fee": {
        "type": "integer",
        "description": "In kobo."
      },
      "currency": {
        "type": "string"
      },
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "accountName": {
        "type": "string",
        "description": "The name the bank gave the enquiry."
      },
      "nameMatch": {
        "type": "string",
        "enum": [
          "exact",
          "partial",
          "not_checked"
        ]
      },
      "narration": {
        "type": "string"
      },
      "batchReference": {
        "type": [
          "string",
          "null"
        ]
      },
      "createdBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The API key that created it, or `dashboard:` and the email of the member who did."
      },
      "approval": {
        "type": [
          "object",
          "null"
        ],
        "additionalProperties": false,
        "required": [
          "status",
          "decidedBy",
          "decidedAt",
          "reason",
          "expiresAt"
        ],
        "properties": {
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "approved",
              "rejected",
              "expired",
              "withdrawn"
            ]
          },
          "decidedBy": {
            "type": [
              "string",
              "null"
            ]
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
            "description": "Why it was rejected."
          },
          "expiresAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          }
        }
      },
      "failureReason": {
        "type": [
          "string",
          "null"
        ]
      },
      "cancellationReason": {
        "type": [
          "string",
          "null"
        ]
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
        "format": "date-time"
      }
    },
    "example": {
      "reference": "PAYOUT-2026-0001",
      "status": "PENDING_APPROVAL",
      "amount": 500000,
      "fee": 2500,
      "currency": "NGN",
      "bankCode": "058",
      "accountNumber": "0123456789",
      "accountName": "ADA LOVELACE",
      "nameMatch": "not_checked",
      "narration": "November invoice",
      "batchReference": null,
      "createdBy": "dashboard:ada@example.com",
      "approval": {
        "status": "pending",
        "decidedBy": null,
        "decidedAt": null,
        "reason": null,
        "expiresAt": "2026-01-02T00:00:00.000Z"
      },
      "failureReason": null,
      "cancellationReason": null,
      "createdAt": "2026-01-01T00:00:00.000Z",
      "completedAt": null
    }
  },
  "PayoutPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Payout"
        }
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ],
        "description": "Pass it as `after` for the next page; null on the last."
      }
    }
  },
  "PayoutEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "type",
      "at",
      "by",
      "note"
    ],
    "description": "A step of the payout's life, as its record holds it.",
    "properties": {
      "type": {
        "type": "string",
        "enum": [
          "created",
          "approved",
          "rejected",
          "sending",
          "successful",
          "failed",
          "cancelled",
          "reversed"
        ]
      },
      "at": {
        "type": "string",
        "format": "date-time"
      },
      "by": {
        "type": [
          "string",
          "null"
        ],
        "description": "Who: the API key, or `dashboard:` and a member's email."
      },
      "note": {
        "type": [
          "string",
          "null"
        ],
        "description": "A rejection's reason, a failure's or a cancellation's."
      }
    }
  },
  "PayoutDetail": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "payout",
      "events"
    ],
    "properties": {
      "payout": {
        "$ref": "#/components/schemas/Payout"
      },
      "events": {
        "type": "array",
        "description": "Oldest first.",
        "items": {
          "$ref": "#/components/schemas/PayoutEvent"
        }
      }
    }
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
        "type": "string",
        "pattern": "^[A-Za-z0-9._-]{1,64}$"
      },
      "amount": {
        "type": "integer",
        "minimum": 1,
        "maximum": 100000000000,
        "description": "In kobo."
      },
      "currency": {
        "type": "string",
        "enum": [
          "NGN"
        ]
      },
      "enquiryId": {
        "type": "string",
        "pattern": "^enq_[A-Za-z0-9_-]{22}$",
        "description": "The `enquiryId` of `POST /account-enquiries`."
      },
      "narration": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S"
      }
    },
    "example": {
      "reference": "PAYOUT-2026-0001",
      "amount": 500000,
      "currency": "NGN",
      "enquiryId": "enq_3q2w7RkY8x0cQm5nVbLz1s",
      "narration": "November invoice"
    }
  },
  "PayoutBatch": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "title",
      "status",
      "count",
      "total",
      "fees",
      "approvalRequired",
      "createdBy",
      "submittedBy",
      "cancellationReason",
      "createdAt",
      "expiresAt",
      "submittedAt"
    ],
    "properties": {
      "reference": {
        "type": "string"
      },
      "title": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayoutBatchStatus"
      },
      "count": {
        "type": "integer"
      },
      "total": {
        "type": "integer",
        "description": "In kobo."
      },
      "fees": {
        "type": "integer",
        "description": "In kobo."
      },
      "approvalRequired": {
        "type": "boolean"
      },
      "createdBy": {
        "type": "string"
      },
      "submittedBy": {
        "type": [
          "string",
          "null"
        ]
      },
      "cancellationReason": {
        "type": [
          "string",
          "null"
        ]
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
        "description": "Until when an `OPEN` batch may be submitted."
      },
      "submittedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      }
    }
  },
  "PayoutBatchPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/PayoutBatch"
        }
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ]
      }
    }
  },
  "PayoutBatchDetail": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "batch",
      "payouts"
    ],
    "properties": {
      "batch": {
        "$ref": "#/components/schemas/PayoutBatch"
      },
      "payouts": {
        "type": "array",
        "description": "Every payout it holds, oldest first: at most `PAYOUT_BATCH_MAX_ITEMS`, since a batch takes no more, and its payouts are cancelled only all together, never one by one.",
        "items": {
          "$ref": "#/components/schemas/Payout"
        }
      }
    }
  },
  "BatchDryRunRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "csv"
    ],
    "properties": {
      "csv": {
        "type": "string",
        "minLength": 1,
        "description": "The file's text (UTF-8), header row first."
      }
    },
    "example": {
      "csv": "reference,bankCode,accountNumber,amount,narration,expectedAccountName\nPAY-1,058,0123456789,5000.50,November salary,Ada Lovelace\n"
    }
  },
  "CreateBatchRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "title",
      "csv"
    ],
    "properties": {
      "reference": {
        "type": "string",
        "pattern": "^[A-Za-z0-9._-]{1,64}$"
      },
      "title": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100
      },
      "csv": {
        "type": "string",
        "minLength": 1
      }
    }
  },
  "BatchRowResult": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "line",
      "reference",
      "bankCode",
      "accountNumber",
      "amount",
      "accountName",
      "nameMatch",
      "problem"
    ],
    "properties": {
      "line": {
        "type": "integer",
        "description": "The row's line in the file (the header is line 1)."
      },
      "reference": {
        "type": "string"
      },
      "bankCode": {
        "type": "string"
      },
      "accountNumber": {
        "type": "string"
      },
      "amount": {
        "type": [
          "integer",
          "null"
        ],
        "description": "In kobo; null when the amount is not one."
      },
      "accountName": {
        "type": [
          "string",
          "null"
        ],
        "description": "The name the bank gave."
      },
      "nameMatch": {
        "type": [
          "string",
          "null"
        ],
        "enum": [
          "exact",
          "partial",
          "not_checked",
          "none",
          null
        ],
        "description": "How `expectedAccountName` compared with it; `none` is a problem."
      },
      "problem": {
        "type": [
          "string",
          "null"
        ],
        "description": "What is wrong with the row; null when it passes."
      }
    }
  },
  "BatchDryRun": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "rows",
      "count",
      "total",
      "problems"
    ],
    "properties": {
      "rows": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/BatchRowResult"
        }
      },
      "count": {
        "type": "integer"
      },
      "total": {
        "type": "integer",
        "description": "In kobo, of the rows whose amount is one."
      },
      "problems": {
        "type": "integer",
        "description": "Rows with a problem; nothing is created while any has one."
      }
    }
  },
  "SubmitBatchRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "expectedCount",
      "expectedTotal"
    ],
    "properties": {
      "expectedCount": {
        "type": "integer",
        "minimum": 1
      },
      "expectedTotal": {
        "type": "integer",
        "minimum": 1,
        "description": "In kobo."
      }
    }
  },
  "RejectRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reason"
    ],
    "properties": {
      "reason": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "\\S",
        "description": "Why; shown in the payout or batch."
      }
    }
  },
  "PayinStatus": {
    "type": "string",
    "enum": [
      "PENDING",
      "SUCCESSFUL",
      "FAILED",
      "ABANDONED",
      "CANCELLED"
    ]
  },
  "PayinChannel": {
    "type": "string",
    "enum": [
      "card",
      "bank_transfer",
      "ussd"
    ]
  },
  "PayinSummary": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "status",
      "amount",
      "currency",
      "fee",
      "amountRefunded",
      "customerEmail",
      "customerName",
      "channel",
      "createdAt",
      "paidAt",
      "failedAt",
      "failureReason"
    ],
    "properties": {
      "reference": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/PayinStatus"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo."
      },
      "currency": {
        "type": "string"
      },
      "fee": {
        "type": [
          "integer",
          "null"
        ],
        "description": "In kobo; set once the payin succeeded."
      },
      "amountRefunded": {
        "type": "integer",
        "description": "What its successful refunds returned, in kobo."
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
      "channel": {
        "description": "The channel it was created for; `null` for any the provider offers.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/PayinChannel"
          },
          {
            "type": "null"
          }
        ]
      },
      "createdAt": {
        "type": "string",
        "format": "date-time"
      },
      "paidAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "failedAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "failureReason": {
        "type": [
          "string",
          "null"
        ]
      }
    },
    "example": {
      "reference": "order-1042",
      "status": "SUCCESSFUL",
      "amount": 150000,
      "currency": "NGN",
      "fee": 2250,
      "amountRefunded": 0,
      "customerEmail": "ada@example.com",
      "customerName": "Ada Obi",
      "channel": "card",
      "createdAt": "2026-11-01T09:30:00.000Z",
      "paidAt": "2026-11-01T09:31:12.000Z",
      "failedAt": null,
      "failureReason": null
    }
  },
  "PayinPage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "data",
      "nextCursor"
    ],
    "properties": {
      "data": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/PayinSummary"
        }
      },
      "nextCursor": {
        "type": [
          "string",
          "null"
        ],
        "description": "The `after` of the next page; `null` on the last."
      }
    }
  },
  "PayinDetail": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "payin",
      "narration",
      "expiresAt",
      "provider",
      "providerReference",
      "needsAttention",
      "amountRefunding",
      "attempts",
      "events",
      "customer",
      "refunds"
    ],
    "properties": {
      "payin": {
        "$ref": "#/components/schemas/PayinSummary"
      },
      "narration": {
        "type": [
          "string",
          "null"
        ]
      },
      "expiresAt": {
        "type": "string",
        "format": "date-time"
      },
      "provider": {
        "type": [
          "string",
          "null"
        ],
        "description": "The provider of record, which every call about the payin goes to."
      },
      "providerReference": {
        "type": [
          "string",
          "null"
        ],
        "description": "Its reference at the provider, once started there."
      },
      "needsAttention": {
        "type": "boolean",
        "description": "The provider reported something an operator must settle; refunds wait until then."
      },
      "amountRefunding": {
        "type": "integer",
        "description": "What its refunds in flight hold, in kobo."
      },
      "attempts": {
        "type": "array",
        "description": "Each try at paying at checkout, oldest first.",
        "items": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "attempt",
            "channel",
            "outcome",
            "declineReason",
            "attemptedAt"
          ],
          "properties": {
            "attempt": {
              "type": "integer",
              "minimum": 1
            },
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
              "type": [
                "string",
                "null"
              ]
            },
            "attemptedAt": {
              "type": "string",
              "format": "date-time"
            }
          }
        }
      },
      "events": {
        "type": "array",
        "description": "The payin's webhook events, oldest first, each with every delivery attempt.",
        "items": {
          "$ref": "#/components/schemas/PayinEvent"
        }
      },
      "customer": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "email",
          "name"
        ],
        "description": "The customer as the payin names them; their other payins are those `q` finds by this email.",
        "properties": {
          "email": {
            "type": "string"
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "refunds": {
        "type": "array",
        "maxItems": 100,
        "description": "The 100 newest. The refunds export filtered by `payinReference` holds them all.",
        "items": {
          "$ref": "#/components/schemas/DashboardRefund"
        }
      }
    }
  },
  "PayinEvent": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "id",
      "type",
      "createdAt",
      "status",
      "nextAttemptAt",
      "notifyUrl",
      "deliveries"
    ],
    "properties": {
      "id": {
        "type": "string"
      },
      "type": {
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
        ]
      },
      "nextAttemptAt": {
        "type": [
          "string",
          "null"
        ],
        "format": "date-time"
      },
      "notifyUrl": {
        "type": "string",
        "description": "Where it was sent."
      },
      "deliveries": {
        "type": "array",
        "items": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "attempt",
            "startedAt",
            "durationMs",
            "statusCode",
            "error"
          ],
          "properties": {
            "attempt": {
              "type": "integer"
            },
            "startedAt": {
              "type": "string",
              "format": "date-time"
            },
            "durationMs": {
              "type": "integer"
            },
            "statusCode": {
              "type": [
                "integer",
                "null"
              ]
            },
            "error": {
              "type": [
                "string",
                "null"
              ]
            }
          }
        }
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
    "description": "`SUCCESSFUL`, `FAILED` and `CANCELLED` are final; the others move as the provider answers."
  },
  "RefundReason": {
    "type": "string",
    "enum": [
      "duplicate",
      "fraudulent",
      "requested_by_customer",
      "other"
    ]
  },
  "DashboardRefund": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reference",
      "payinReference",
      "status",
      "amount",
      "currency",
      "reason",
      "failureReason",
      "createdBy",
      "createdAt",
      "completedAt"
    ],
    "properties": {
      "reference": {
        "type": "string"
      },
      "payinReference": {
        "type": "string"
      },
      "status": {
        "$ref": "#/components/schemas/RefundStatus"
      },
      "amount": {
        "type": "integer",
        "description": "In kobo."
      },
      "currency": {
        "type": "string"
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
      "failureReason": {
        "type": [
          "string",
          "null"
        ]
      },
      "createdBy": {
        "type": [
          "string",
          "null"
        ],
        "description": "The API key that made it, or `dashboard:<email>` for a member."
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
        "format": "date-time"
      }
    },
    "example": {
      "reference": "rf_7Q2kV9xW3mN8pL4s",
      "payinReference": "order-1042",
      "status": "PENDING",
      "amount": 50000,
      "currency": "NGN",
      "reason": "requested_by_customer",
      "failureReason": null,
      "createdBy": "dashboard:ada@example.com",
      "createdAt": "2026-11-02T10:00:00.000Z",
      "completedAt": null
    }
  },
  "DashboardRefundRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
      "reason"
    ],
    "properties": {
      "amount": {
        "type": "integer",
        "minimum": 1,
        "maximum": 100000000000,
        "description": "In kobo; left out, everything the payin has left."
      },
      "reason": {
        "$ref": "#/components/schemas/RefundReason"
      },
      "reference": {
        "type": "string",
        "pattern": "^[A-Za-z0-9._-]{1,64}$",
        "description": "The refund's reference; sending the same request again with it answers the same refund. Left out, one is made (`rf_` and 96 random bits)."
      }
    },
    "example": {
      "amount": 50000,
      "reason": "requested_by_customer"
    }
  }
} as const;
