package views

// CheckExample is the model /check offers to try: three operators, two of
// them refused (a PADDING1 whose output is a column short and whose
// PaddingValue names a member DxDispatch does not read for FLOAT32, and a
// DEPTH_TO_SPACE1 whose 8 channels BlockSize² = 9 does not divide), a TILE
// valid: a first visitor sees what the page answers before they have a
// model of their own at hand.
const CheckExample = `{
  "dispatchables": {
    "pad": {
      "type": "DML_OPERATOR_PADDING1",
      "desc": {
        "InputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            1,
            2,
            3
          ]
        },
        "OutputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            1,
            4,
            6
          ]
        },
        "PaddingMode": "DML_PADDING_MODE_REFLECTION",
        "PaddingValueDataType": "FLOAT32",
        "ValueDataType": "FLOAT32",
        "PaddingValue": {
          "Int8": 0
        },
        "DimensionCount": 4,
        "StartPadding": [
          0,
          0,
          1,
          2
        ],
        "EndPadding": [
          0,
          0,
          1,
          2
        ]
      }
    },
    "tile": {
      "type": "DML_OPERATOR_TILE",
      "desc": {
        "InputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            1,
            2,
            3
          ]
        },
        "OutputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            1,
            4,
            9
          ]
        },
        "RepeatsCount": 4,
        "Repeats": [
          1,
          1,
          2,
          3
        ]
      }
    },
    "d2s": {
      "type": "DML_OPERATOR_DEPTH_TO_SPACE1",
      "desc": {
        "InputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            8,
            2,
            3
          ]
        },
        "OutputTensor": {
          "DataType": "FLOAT32",
          "Sizes": [
            1,
            2,
            4,
            6
          ]
        },
        "BlockSize": 3,
        "Order": "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW"
      }
    }
  },
  "commands": [
    {
      "type": "dispatch",
      "dispatchable": "pad",
      "bindings": {
        "InputTensor": "input"
      }
    }
  ]
}`
